#!/usr/bin/env bash
# GM-SSL bench: handshakes/s and MB/s per suite, 1 and 2 threads — the TLCP Request sampler in the
# assembled JMeter vs the bgm engine's raw loop (same client, no JMeter) vs SunJSSE TLS 1.3
# ECDHE-P256 on the same loop, beside `openssl speed sm2 / sm3 / sm4-cbc`. Server: the lab's gmssl
# service (its own JVM, 127.0.0.1). Every loop is bounded by time.
#
#   bench/gmssl-bench.sh [--no-build] [parts=jmeter,raw,inprocess] [seconds=6] [warmup=4] [threads=1,2]
#                        [suites=...] [tpSuites=...] [inprocessSuites=...] [rounds=2]
#
# Raw files: bench/target/gmssl-bench/<timestamp>/ (gmssl-bench.md is the table).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [ "${1:-}" = "--no-build" ]; then
  shift
else
  mvn -B -q -o -DskipTests package
fi
OUT="$ROOT/bench/target/gmssl-bench/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$OUT"
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "load (1/5/15 min) at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "java: $(java -version 2>&1 | head -n 2 | tail -n 1)"
  echo "openssl: $(openssl version 2>/dev/null || echo none)"
} | tee "$OUT/machine.txt"
TRUSTLOAD_BGM_JVM_ARGS=""
# shellcheck source=../dist/src/main/jmeter/bin/setenv.sh
JVM_ARGS="" . "$ROOT/dist/src/main/jmeter/bin/setenv.sh"
# the assembled JMeter's jars too: part "inprocess" calls the TLCP Request sampler in this JVM
JH="$ROOT/dist/target/jmeter"
CP="$ROOT/bench/target/trustload-bench-0.1.0.jar:$(cat "$ROOT/bench/target/bench.classpath"):$JH/lib/*:$JH/lib/ext/*"
# shellcheck disable=SC2086 # an option list
timeout --kill-after=30 1800 java -Xmx512m $TRUSTLOAD_BGM_JVM_ARGS -cp "$CP" -Dtrustload.root="$ROOT" \
  org.trustload.bench.gmssl.GmsslBench out="$OUT" "$@" | tee "$OUT/bench.txt"
