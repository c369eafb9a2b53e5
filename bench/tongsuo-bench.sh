#!/usr/bin/env bash
# tongsuo engine bench: native C client (Tongsuo) vs the tongsuo and bgm engines' raw loops vs the TLCP
# Request sampler (when the gmssl plans exist), TLS 1.3 TLS_SM4_GCM_SM3 against the native peer server.
# Needs gcc. Writes the tongsuo section of docs/scenarios/gmssl.md.
#   bench/tongsuo-bench.sh [--no-build] [seconds=8] [warmup=5] [count=200] [requests=60] [sampler=true]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [ "${1:-}" = "--no-build" ]; then
  shift
else
  # package only (never install): builds lib's test-jar (the native peer fixture) and dist/target/jmeter
  mvn -B -q -o -DskipTests package
fi
CP="$ROOT/bench/target/trustload-bench-0.1.0.jar:$(cat "$ROOT/bench/target/bench.classpath")"
# the bgm raw loop and the sampler runs need bgm's JVM options: their one definition is dist's bin/setenv.sh
# shellcheck disable=SC1091
. "$ROOT/dist/src/main/jmeter/bin/setenv.sh"
read -r -a FLAGS <<<"$TRUSTLOAD_BGM_JVM_ARGS"
exec java -Xmx512m "${FLAGS[@]}" -cp "$CP" -Dtrustload.root="$ROOT" org.trustload.bench.TongsuoBench "$@"
