#!/usr/bin/env bash
# The main job: builds every package, describes the API from the operation catalog (writing
# out/openapi.json), starts the self-hosted server and drives it through the xb command line.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh

pnpm run build
pnpm run --silent demo
