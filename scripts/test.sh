#!/usr/bin/env bash
# Runs every check and test of the repository: lint, build, typecheck, unit and type tests,
# package checks (publint, attw) and the tree-shaking size check. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh

rm -f packages/*/.test-report.json apps/*/.test-report.json
status=0
pnpm run ci || status=$?
pnpm run --silent test:summary || true
exit "$status"
