#!/usr/bin/env bash
# Publishes the packages changesets has versioned (`pnpm changeset version`, committed), with npm
# provenance: from CI only, where the job's identity token lets npm sign where each tarball was
# built. Runs every test first (the consumer test included); publishes nothing if one fails.
# Private packages (the server, the service kernel) are never versioned or published.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CI:-}" ] || [ -z "${ACTIONS_ID_TOKEN_REQUEST_URL:-}" ]; then
  echo "release: run this from CI with an OIDC identity token (npm provenance needs one)." >&2
  exit 1
fi
bash scripts/test.sh
NPM_CONFIG_PROVENANCE=true pnpm exec changeset publish
