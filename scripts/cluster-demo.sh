#!/usr/bin/env bash
# Many nodes, one service, on this machine: a throw-away PostgreSQL and three xb-server nodes on
# it; a session made through each node is driven through the others, then a node is killed and
# the others find its session lost and fill its pool again. Builds the packages first; stops
# everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh

pnpm run build
pnpm run --silent cluster-demo
