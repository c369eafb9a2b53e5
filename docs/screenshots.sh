#!/usr/bin/env bash
# Refreshes docs/elements/img/*.png: renders every TrustLoad element in JMeter's GUI under Xvfb, and
# <Element>-<choice>.png, the forms that change with the operation, mode, backend or source,
# (the same test CI runs, ElementGuiIT) and writes the pictures into the docs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v xvfb-run >/dev/null || { echo "needs xvfb-run (apt-get install xvfb)" >&2; exit 1; }
xvfb-run -a mvn -B -q verify -pl test-plans -am \
  -Dit.test=ElementGuiIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dtrustload.screenshots="$PWD/docs/elements/img"
ls -l docs/elements/img
