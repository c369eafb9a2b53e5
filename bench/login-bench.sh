#!/usr/bin/env bash
# Certificate login bench: logins/s, challenge-response vs mutual TLS (full handshake per login, and
# with session reuse), 1 certificate vs the lab's 1000 users of 3 CAs, 40 client threads, against the lab.
#   bench/login-bench.sh [--no-build] [threads=40] [seconds=20] [warmup=5]
# Writes docs/scenarios/certificate-login-bench.md (docs/scenarios/certificate-login.md quotes it).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [ "${1:-}" = "--no-build" ]; then
  shift
else
  # package only (never install)
  mvn -B -q -o -DskipTests package
fi
CP="$ROOT/bench/target/trustload-bench-0.1.0.jar:$(cat "$ROOT/bench/target/bench.classpath")"
exec java -Xmx1g -cp "$CP" -Dtrustload.root="$ROOT" org.trustload.bench.login.LoginBench "$@"
