#!/usr/bin/env bash
# KMS bench: requests/s and client CPU ms/request at 1, 8 and 32 threads, AES-256 Encrypt of 32 bytes
# against the lab's AWS KMS emulator (its own JVM): the KMS Request sampler in the assembled JMeter
# (plan kms/kms-benchmark-aws) vs a raw AWS SDK v2 loop. Measured in one run so the ratio holds on a
# loaded machine; record the load printed with the table.
#
#   bench/kms-bench.sh [--no-build] [threads=1,8,32] [warmup=5] [window=10] [case=encrypt]
#
# Everything binds to 127.0.0.1; every cell is bounded by its window; raw files go to
# bench/target/kms-bench/<timestamp>/.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [ "${1:-}" = "--no-build" ]; then
  shift
else
  # package only (never install: the reactor assembles dist/target/jmeter and writes bench.classpath)
  mvn -B -q -o -DskipTests package
fi
OUT="$ROOT/bench/target/kms-bench/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$OUT"
echo "kms-bench: raw files in $OUT; load at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2
CP="$ROOT/bench/target/trustload-bench-0.1.0.jar:$(cat "$ROOT/bench/target/bench.classpath")"
exec java -Xmx512m -cp "$CP" -Dtrustload.root="$ROOT" org.trustload.bench.kms.KmsBench out="$OUT" "$@"
