#!/usr/bin/env bash
# Puts `xb` and `xb-server` from this clone on the PATH: builds them, packs @x/types, @x/client,
# @x/mcp, @x/cli and @x/server as the release would publish them (`pnpm pack`: no workspace: range left), installs
# the tarballs with npm, beside the Node.js they need (the registry package `node`, the version
# the workspace runs on), in <prefix>/lib/xb, and writes two small commands in <prefix>/bin that
# run them on that Node.js, whatever Node.js the machine has. The clone can be removed after.
#
#   bash scripts/install-bins.sh [--prefix DIR]
#
# The prefix is /usr/local for root, else ~/.local. Run it again to update; remove
# <prefix>/lib/xb, <prefix>/bin/xb and <prefix>/bin/xb-server to uninstall.
set -euo pipefail

prefix=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-bins: unknown argument $1 (usage: bash scripts/install-bins.sh [--prefix DIR])" >&2; exit 2 ;;
  esac
done
if [ -z "$prefix" ]; then
  if [ "$(id -u)" = 0 ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
fi
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

cd "$(dirname "$0")/.."
root=$(pwd)
# pnpm and the workspace's packages (Debian's packages the server drives are the operator's to
# install: apps/server/README.md, Run).
xb_bootstrap_without_system_deps=1
source scripts/bootstrap.sh
pnpm exec turbo run build --filter=@x/cli --filter=@x/server --output-logs=errors-only

work=$(mktemp -d "${TMPDIR:-/tmp}/xb-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The server depends on @x/client and @x/mcp (its /mcp), which are not on the registry yet either.
for name in types client mcp cli server; do
  pnpm --filter "@x/$name" pack --pack-destination "$work" >/dev/null
done

lib="$prefix/lib/xb"
node_version=$(node -p "require('$root/package.json').devDependencies.node")
mkdir -p "$lib" "$prefix/bin"
[ -f "$lib/package.json" ] || echo '{ "name": "xb-install", "private": true }' >"$lib/package.json"
(cd "$lib" && npm install --no-audit --no-fund --loglevel=error "$work"/*.tgz "node@$node_version" >/dev/null)
node="$lib/node_modules/node/bin/node"
[ -x "$node" ] || { echo "install-bins: node@$node_version did not install in $lib" >&2; exit 1; }

write_command() { # <name> <command line>
  cat >"$prefix/bin/$1" <<EOF
#!/bin/sh
# $1 from $root, installed by scripts/install-bins.sh: run on Node.js $node_version.
exec $2 "\$@"
EOF
  chmod 755 "$prefix/bin/$1"
}
write_command xb "\"$node\" \"$lib/node_modules/@x/cli/dist/bin/xb.js\""
write_command xb-server "\"$node\" --max-semi-space-size=4 \"$lib/node_modules/@x/server/dist/main.js\""

echo "Installed xb $("$prefix/bin/xb" --version) and xb-server $("$prefix/bin/xb-server" --version) in $prefix/bin (Node.js $node_version in $lib)."
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "$prefix/bin is not on your PATH: add it (export PATH=\"$prefix/bin:\$PATH\")." ;;
esac
