#!/usr/bin/env bash
# Publishes the packages changesets has versioned (`pnpm changeset version`, committed), with npm
# provenance: from CI only, where the job's identity token lets npm sign where each tarball was
# built. Runs every test first (the consumer test included); publishes nothing if one fails.
# The service kernel, a private package, is never published: the server and the fake bundle it.
# Then the server's container image is built from this same commit and pushed, tagged with the
# server's version and `latest`, to the repository XB_IMAGE names (e.g. ghcr.io/xb-browsers/xb-server;
# podman logged in to it beforehand); without XB_IMAGE no image is made, and it says so.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CI:-}" ] || [ -z "${ACTIONS_ID_TOKEN_REQUEST_URL:-}" ]; then
  echo "release: run this from CI with an OIDC identity token (npm provenance needs one)." >&2
  exit 1
fi
bash scripts/test.sh
NPM_CONFIG_PROVENANCE=true pnpm exec changeset publish

if [ -z "${XB_IMAGE:-}" ]; then
  echo "release: XB_IMAGE is not set: the packages are published, no container image was made." >&2
  exit 0
fi
version=$(node -p "require('./apps/server/package.json').version")
podman build --format docker -f apps/server/deploy/Containerfile \
  -t "$XB_IMAGE:$version" -t "$XB_IMAGE:latest" .
podman push "$XB_IMAGE:$version"
podman push "$XB_IMAGE:latest"
echo "release: pushed $XB_IMAGE:$version (and :latest)"

