#!/usr/bin/env bash
# LDAP bench: our sampler in JMeter vs raw UnboundID vs stock JMeter LDAP samplers, the published
# ldap-vs-ldaps-vs-ldapi scenario (+ Perl Net::LDAP peer) and JMeter heap/CPU during 500x25 / 200x10.
# Needs slapd (apt-get install slapd ldap-utils); Perl peer: libnet-ldap-perl libio-socket-ssl-perl.
#   bench/ldap-bench.sh [--no-build] [key=value ...]   e.g. parts=matrix rounds=3 piOps=1000 ptOps=5000
# Writes docs/scenarios/ldap-bench.md and the generated sections of docs/scenarios/ldap-*.md.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [ "${1:-}" = "--no-build" ]; then
  shift
else
  # package only (never install: the reactor resolves lib's test-jar and assembles dist/target/jmeter)
  mvn -B -q -o -DskipTests package
fi
CP="$ROOT/bench/target/trustload-bench-0.1.0.jar:$(cat "$ROOT/bench/target/bench.classpath")"
exec java -Xmx512m -cp "$CP" -Dtrustload.root="$ROOT" org.trustload.bench.LdapBench "$@"
