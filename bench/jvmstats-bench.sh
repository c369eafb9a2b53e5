#!/usr/bin/env bash
# JVM Stats bench: the listener's cost on throughput at 1 s polling (same Debug Sampler plan with and
# without it, alternated) and the CPU of one poll per source. Figures go to bench/target/jvmstats/result.txt.
#   bench/jvmstats-bench.sh [--no-build] [rounds=3] [seconds=20] [threads=2]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [ "${1:-}" = "--no-build" ]; then
  shift
else
  # package only (never install): assembles dist/target/jmeter and the bench jar
  mvn -B -q -o -DskipTests package
fi
CP="$ROOT/bench/target/trustload-bench-0.1.0.jar:$(cat "$ROOT/bench/target/bench.classpath")"
exec java -Xmx1g -cp "$CP" -Dtrustload.root="$ROOT" org.trustload.bench.jvmstats.JvmStatsBench "$@"
