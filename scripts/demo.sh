#!/usr/bin/env bash
# The main job: builds every package, describes the API from the operation catalog (writing
# out/openapi.json) and drives every area of the API through the xb command line against the fake.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh

pnpm run build
pnpm run --silent demo
