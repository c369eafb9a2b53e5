#!/usr/bin/env bash
# Alibaba KMS instance encrypt bench: requests/s and client CPU ms per request at 1, 8 and 32 threads,
# the unmodified SDK in a raw loop vs the plan kms/kms-benchmark-aliyun in the assembled JMeter, both
# against the lab's emulator (its own process, 127.0.0.1 only). Bounded: per thread count one raw loop
# (warmup + seconds) and two JMeter runs, each with a kill timeout.
#
#   bench/kms-aliyun-bench.sh [--no-build] [threads=1,8,32] [seconds=20] [warmup=20] [portBase=43000]
#
# Raw files: bench/target/kms-aliyun-bench/<timestamp>/.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [ "${1:-}" = "--no-build" ]; then
  shift
else
  # package only (never install): assembles dist/target/jmeter and the lab jar, writes bench.classpath
  mvn -B -q -o -DskipTests package
fi
OUT="$ROOT/bench/target/kms-aliyun-bench/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$OUT"
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "load (1/5/15 min) at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "java: $(java -version 2>&1 | head -n 2 | tail -n 1)"
} | tee "$OUT/machine.txt"
CP="$ROOT/bench/target/trustload-bench-0.1.0.jar:$(cat "$ROOT/bench/target/bench.classpath")"
java -Xmx512m -cp "$CP" -Dtrustload.root="$ROOT" org.trustload.bench.AliyunKmsBench out="$OUT" "$@" | tee "$OUT/bench.txt"
echo "load (1/5/15 min) at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/machine.txt"
