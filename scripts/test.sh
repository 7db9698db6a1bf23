#!/usr/bin/env bash
# Runs every check and test of the repository: lint, build, typecheck, unit and type tests (the
# server's suite on SQLite, then again on PostgreSQL), the server's system tests (the built bin
# and a cluster of them as users start them), package checks (publint, attw), the
# tree-shaking and bundle-size checks, and the consumer test (the packed
# packages installed with npm into a fresh project, their README examples run on Node 22 and 24
# and type-checked), and the server's container image built and run for real. Exits non-zero on
# any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh

rm -f packages/*/.test-report*.json apps/*/.test-report*.json tests/*/.test-report*.json
status=0
pnpm run ci || status=$?
# The server's whole suite (the contract suite in it) again with its records on PostgreSQL, in a
# throw-away cluster of the run's own (Debian's postgresql; never the machine's cluster).
if [ "$status" = 0 ]; then pnpm --filter @x/server run test:postgresql || status=$?; fi
# The shipped server as users run it: the built xb-server bin as a process (its umask and all),
# a cluster of them started at once, driven through the public API (root: namespaces, users).
if [ "$status" = 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    pnpm --filter @x/server run test:system || status=$?
  else
    echo "The server's system tests need root (network namespaces, sandbox users): left out." >&2
  fi
fi
# The packages as a user installs them from npm (needs the build above).
if [ "$status" = 0 ]; then bash scripts/consumer-test.sh || status=$?; fi
# The server's container image, built from a clean clone and run with podman (root only: it
# makes its base with debootstrap; XB_SKIP_IMAGE=1 leaves it out).
if [ "$status" = 0 ] && [ "${XB_SKIP_IMAGE:-}" != 1 ]; then
  if [ "$(id -u)" = 0 ]; then
    bash apps/server/deploy/verify-image.sh || status=$?
  else
    echo "The container image check needs root (debootstrap, podman): left out." >&2
  fi
fi
pnpm run --silent test:summary || true
exit "$status"
