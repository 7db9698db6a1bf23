#!/usr/bin/env bash
# Runs every check and test of the repository: lint, build, typecheck, unit and type tests,
# package checks (publint, attw), the tree-shaking size check, and the consumer test (the packed
# packages installed with npm into a fresh project, their README examples run on Node 22 and 24
# and type-checked). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh

rm -f packages/*/.test-report.json apps/*/.test-report.json
status=0
pnpm run ci || status=$?
# The packages as a user installs them from npm (needs the build above).
if [ "$status" = 0 ]; then bash scripts/consumer-test.sh || status=$?; fi
pnpm run --silent test:summary || true
exit "$status"
