#!/usr/bin/env bash
# PKI bench: signatures/s on this machine, 1 and 2 threads — our CAdES/PAdES Sign samplers (local
# mode) in the assembled JMeter vs our engine without JMeter vs a raw BouncyCastle CMS / PDFBox+BC
# loop vs the raw JCA sign rate vs `openssl speed`, in-memory P-256 key vs the same key on SoftHSM2.
# Plus (part "plans") each test-plans/pki plan for a short duration against the lab.
#
#   bench/pki-bench.sh [--no-build] [parts=bench,plans] [key=value ...]
#     bench keys: document=PDF threads=1,2 rounds=3 cadesOps=300 padesOps=100 jcaOps=400 warmup=100 maxSeconds=60
#                 hsm=true pades=true openssl=true
#     plans keys: planDuration=60 plans=cades:40,cades-t:40,pades:20,pades-t:20,timestamp:40
#
# Everything binds to 127.0.0.1; every loop is bounded by a count and a time limit; every child
# (JMeter, openssl, ./trustload) has a kill timeout. Raw files: bench/target/pki-bench/<timestamp>/.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [ "${1:-}" = "--no-build" ]; then
  shift
else
  # package only (never install: the reactor assembles dist/target/jmeter and writes bench.classpath)
  mvn -B -q -o -DskipTests package
fi

PARTS=bench
PLAN_DURATION=60
PLANS="cades:40,cades-t:40,pades:20,pades-t:20,timestamp:40"
JAVA_ARGS=()
for a in "$@"; do
  case "$a" in
    parts=*) PARTS=${a#parts=} ;;
    planDuration=*) PLAN_DURATION=${a#planDuration=} ;;
    plans=*) PLANS=${a#plans=} ;;
    *) JAVA_ARGS+=("$a") ;;
  esac
done
OUT="$ROOT/bench/target/pki-bench/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$OUT"
echo "pki-bench: raw files in $OUT" >&2

machine_info() {
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "load (1/5/15 min) at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "java: $(java -version 2>&1 | head -n 2 | tail -n 1)"
  echo "openssl: $(openssl version 2>/dev/null || echo none)"
  echo "softhsm2: $(dpkg-query -W -f='${Version}' softhsm2 2>/dev/null || echo none)"
}

if [[ ",$PARTS," == *",bench,"* ]]; then
  machine_info | tee "$OUT/machine.txt"
  # SoftHSM reads SOFTHSM2_CONF when the library initialises: set it for the bench JVM and its
  # children (JMeter, softhsm2-util), with a token directory of our own (never the system one).
  if [ -f /usr/lib/softhsm/libsofthsm2.so ] && command -v softhsm2-util >/dev/null && command -v pkcs11-tool >/dev/null; then
    mkdir -p "$OUT/softhsm/tokens"
    printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$OUT/softhsm/tokens" \
      > "$OUT/softhsm/softhsm2.conf"
    export SOFTHSM2_CONF="$OUT/softhsm/softhsm2.conf"
  fi
  CP="$ROOT/bench/target/trustload-bench-0.1.0.jar:$(cat "$ROOT/bench/target/bench.classpath")"
  java -Xmx512m -cp "$CP" -Dtrustload.root="$ROOT" org.trustload.bench.pki.PkiBench out="$OUT" \
    ${JAVA_ARGS[@]+"${JAVA_ARGS[@]}"} | tee "$OUT/bench.txt"
fi

if [[ ",$PARTS," == *",plans,"* ]]; then
  machine_info > "$OUT/plans-machine.txt"
  echo "== plans: ./trustload run pki/<plan> -Jduration=$PLAN_DURATION -Jthreads=<n> (lab pki service, remote mode)" \
    | tee "$OUT/plans.txt"
  IFS=, read -r -a items <<< "$PLANS"
  for item in "${items[@]}"; do
    plan=${item%%:*}; threads=${item#*:}
    before=$(ls -d "$ROOT/results/pki/$plan"/*/ 2>/dev/null | sort | tail -n 1 || true)
    load=$(cut -d' ' -f1 /proc/loadavg)
    echo "-- pki/$plan threads=$threads load-before=$load" | tee -a "$OUT/plans.txt"
    rc=0
    timeout --kill-after=30 $((PLAN_DURATION + 240)) ./trustload run "pki/$plan" -Jduration="$PLAN_DURATION" \
      -Jthreads="$threads" > "$OUT/plan-$plan.log" 2>&1 || rc=$?
    after=$(ls -d "$ROOT/results/pki/$plan"/*/ 2>/dev/null | sort | tail -n 1 || true)
    if [ -z "$after" ] || [ "$after" = "$before" ] || [ ! -s "$after/report/statistics.json" ]; then
      echo "   no statistics.json (exit $rc); see $OUT/plan-$plan.log" | tee -a "$OUT/plans.txt"
      continue
    fi
    echo "   exit $rc, results $after" | tee -a "$OUT/plans.txt"
    python3 - "$after/report/statistics.json" "$threads" <<'EOF' | tee -a "$OUT/plans.txt"
import json, sys
stats = json.load(open(sys.argv[1]))
print("   %-34s %8s %7s %10s %12s" % ("label", "samples", "errors", "per min", "avg ms"))
for label, s in stats.items():
    print("   %-34s %8d %7d %10.1f %12.1f" % (label, s["sampleCount"], s["errorCount"],
          s["throughput"] * 60, s["meanResTime"]))
EOF
  done
fi
