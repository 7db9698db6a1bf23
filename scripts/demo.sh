#!/usr/bin/env bash
# The main job: builds every package and describes the API from the operation catalog, writing
# the OpenAPI document to out/openapi.json. It will drive the self-hosted server once that exists.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh

pnpm run build
pnpm run --silent demo
