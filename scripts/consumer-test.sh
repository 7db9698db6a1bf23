#!/usr/bin/env bash
# The published packages as a user gets them, after a build: packs @x/types, @x/client, @x/cli,
# @x/mcp and @x/testing (pnpm pack), installs the tarballs with plain npm into a fresh project outside
# the workspace, runs each package README's example against the fake service (xb-fake from the
# installed @x/testing) on the lowest Node they declare (22.0.0), the newest 22 and Node 24 (each the
# registry package `node`), and
# type-checks the TypeScript examples with tsc under moduleResolution nodenext and bundler; then
# the packed @x/server installed with npm and started; each bin run on Node 20 (one line, exit 1);
# and scripts/install-bins.sh, a clone's way to put xb and xb-server on the PATH, run and its
# commands used. A `workspace:` range or a file missing from a tarball fails it. Everything it makes lives in
# one temporary directory, removed at the end; the fakes it starts are stopped by pid.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/xb-consumer.XXXXXX")
fake_pid=""
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [ -n "$fake_pid" ]; then kill "$fake_pid" 2>/dev/null || true; wait "$fake_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "consumer test: $*" >&2; exit 1; }
npm_quiet() { npm --no-audit --no-fund --loglevel=error "$@"; }

packages=(types client cli mcp testing)
mkdir -p "$work/tarballs"
for name in "${packages[@]}"; do
  pnpm --filter "@x/$name" pack --pack-destination "$work/tarballs" >/dev/null
done

# What each tarball must hold, besides its package.json.
declare -A must_hold=(
  [types]="package/LICENSE package/README.md package/dist/index.js package/dist/index.d.ts package/dist/openapi/index.js"
  [client]="package/LICENSE package/README.md package/dist/index.js package/dist/index.d.ts package/dist/node/index.js"
  [cli]="package/LICENSE package/README.md package/bin/xb.js package/dist/bin/xb.js package/dist/index.js package/dist/index.d.ts"
  [mcp]="package/LICENSE package/README.md package/dist/index.js package/dist/index.d.ts"
  [testing]="package/LICENSE package/README.md package/dist/index.js package/dist/vitest.js package/bin/xb-fake.js package/dist/bin/xb-fake.js"
)
for name in "${packages[@]}"; do
  tarball=$(ls "$work"/tarballs/x-"$name"-*.tgz)
  listing=$(tar -tzf "$tarball")
  for file in ${must_hold[$name]}; do
    grep -qx "$file" <<<"$listing" || fail "@x/$name: $file is missing from $(basename "$tarball")"
  done
  if grep -q '\.map$' <<<"$listing"; then fail "@x/$name ships source maps without their sources"; fi
  manifest=$(tar -xzOf "$tarball" package/package.json)
  if grep -q '"workspace:' <<<"$manifest"; then fail "@x/$name keeps a workspace: range: $manifest"; fi
done
echo "consumer test: packed ${packages[*]}: every file there, no workspace: range, no source map"

# The lowest Node the packages declare (engines: >=22, so 22.0.0), the newest 22 and 24, from the
# registry package `node`, each in a directory of its own.
nodes=(22.0.0 22 24)
for version in "${nodes[@]}"; do
  mkdir -p "$work/node$version"
  (cd "$work/node$version" && npm_quiet init -y >/dev/null && npm_quiet install "node@$version" >/dev/null)
done

# The user's project: the tarballs, TypeScript and Node's types, nothing from the workspace.
app="$work/app"
mkdir -p "$app"
cd "$app"
cat >package.json <<'EOF'
{ "name": "consumer", "private": true, "type": "module" }
EOF
typescript=$(node -p "require('$root/node_modules/typescript/package.json').version")
types_node=$(node -p "require('$root/node_modules/@types/node/package.json').version")
npm_quiet install "$work"/tarballs/*.tgz "typescript@$typescript" "@types/node@$types_node" >/dev/null

# Each README's example, as the README shows it.
extract() { # <readme> <fence language> <output file>
  awk -v lang="$2" '
    /^## Example/ { inside = 1; next }
    inside && /^## / { exit }
    inside && $0 == "```" lang { copying = 1; next }
    copying && /^```/ { exit }
    copying { print }
  ' "$1" >"$3"
  [ -s "$3" ] || fail "no \`\`\`$2 example under ## Example in $1"
}
extract "$root/packages/types/README.md" ts types-example.ts
extract "$root/packages/client/README.md" ts client-example.ts
extract "$root/packages/testing/README.md" ts testing-example.ts
extract "$root/packages/mcp/README.md" ts mcp-example.ts
extract "$root/packages/cli/README.md" sh cli-example.sh

# The built client keeps its error classes' names (a bundler once made them `_InputValidationError`).
"$work/node24/node_modules/node/bin/node" --input-type=module -e "
import { createClient, InputValidationError, NotFoundError } from '@x/client';
const client = createClient({ baseUrl: 'http://127.0.0.1:9', token: 't' });
// An empty path parameter cannot make a request: refused before anything is sent.
const error = await client.browsers.get({ id: '' }).catch((caught) => caught);
if (!(error instanceof InputValidationError) || error.name !== 'InputValidationError')
  throw new Error('the built InputValidationError is named ' + error.name);
if (new NotFoundError({ status: 404, body: { code: 'not_found', message: 'x' }, headers: new Headers() }).name !== 'NotFoundError')
  throw new Error('the built NotFoundError lost its name');
" || fail "the built client renames its errors"

# What the examples use: an extension as a zip and as a folder, a CSV.
node24="$work/node24/node_modules/node/bin/node"
"$node24" --input-type=module -e "
import { writeFileSync } from 'node:fs';
import { buildExtensionArchive } from '@x/testing';
writeFileSync('adblock.zip', buildExtensionArchive());
"
mkdir -p my-extension
echo '{"manifest_version":3,"name":"my-extension","version":"1.0"}' >my-extension/manifest.json
printf 'sku,qty\nA-1,2\n' >input.csv
# The fake starts with one pool of two warm browsers, `checkout`, which the examples read.
cat >seed.json <<'EOF'
{ "pools": [ { "id": "pool_checkout", "name": "checkout", "available_count": 2, "acquired_count": 0,
  "created_at": "2026-11-22T10:00:00.000Z", "browser_pool_config": { "size": 2, "name": "checkout" } } ] }
EOF

start_fake() { # <node>: a fresh fake for one example, its URL in XB_BASE_URL
  "$1" node_modules/@x/testing/dist/bin/xb-fake.js --seed seed.json --token consumer-token \
    >"$work/fake.out" 2>"$work/fake.err" &
  fake_pid=$!
  # Up to 30 s: a loaded machine (the suites before this one) can be slow to start Node. One
  # that has exited is not waited for.
  for _ in $(seq 1 300); do
    if [ -s "$work/fake.out" ] || ! kill -0 "$fake_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  XB_BASE_URL=$(head -n 1 "$work/fake.out")
  # Said with what the process was doing, to find why when it happens.
  [ -n "$XB_BASE_URL" ] || fail "xb-fake did not start (it $(kill -0 "$fake_pid" 2>/dev/null && echo "still runs: $(grep -E '^(State|Threads|voluntary_ctxt_switches)' "/proc/$fake_pid/status" 2>/dev/null | paste -sd ' ' -), waiting in $(cat "/proc/$fake_pid/wchan" 2>/dev/null), load $(cut -d' ' -f1-3 /proc/loadavg)" || echo 'exited')): $(cat "$work/fake.err")"
  export XB_BASE_URL XB_TOKEN=consumer-token
}
stop_fake() {
  kill "$fake_pid" 2>/dev/null || true
  wait "$fake_pid" 2>/dev/null || true
  fake_pid=""
}

# A Node before 22.18 runs no TypeScript: there the examples run as tsc emits them for users.
"$work/node24/node_modules/node/bin/node" node_modules/typescript/bin/tsc --outDir js \
  --target es2022 --module nodenext --moduleResolution nodenext --types node --skipLibCheck \
  types-example.ts client-example.ts testing-example.ts mcp-example.ts ||
  fail "the examples do not compile to JavaScript"

for major in "${nodes[@]}"; do
  node="$work/node$major/node_modules/node/bin/node"
  echo "consumer test: Node $("$node" --version)"
  strips_types=$("$node" -p "const [a, b] = process.versions.node.split('.').map(Number); a > 22 || (a === 22 && b >= 18)")
  for example in types client testing mcp; do
    start_fake "$node"
    script="$example-example.ts"
    [ "$strips_types" = true ] || script="js/$example-example.js"
    if ! output=$("$node" "$script" 2>&1); then
      fail "the @x/$example README example failed on Node $major: $output"
    fi
    stop_fake
    # What the examples' comments say they print first.
    case "$example" in
      types) expected='2 2' ;;
      testing) expected='2' ;;
      # Every tool the installed package lists, in its order.
      mcp) expected=$("$node" --input-type=module -e "import { TOOL_NAMES } from '@x/mcp'; console.log(TOOL_NAMES.join(', '))") ;;
      *) expected="" ;;
    esac
    if [ -n "$expected" ] && [ "$(head -n 1 <<<"$output")" != "$expected" ]; then
      fail "the @x/$example README example printed \"$(head -n 1 <<<"$output")\", not \"$expected\" as its comment says"
    fi
    echo "  @x/$example README example, as it printed:"
    sed 's/^/    /' <<<"$output"
  done
  start_fake "$node"
  bin_dir="$work/bin$major"
  mkdir -p "$bin_dir"
  ln -sf "$node" "$bin_dir/node"
  if ! output=$(PATH="$bin_dir:$app/node_modules/.bin:$PATH" bash -euo pipefail cli-example.sh 2>&1); then
    fail "the @x/cli README example failed on Node $major: $output"
  fi
  stop_fake
  echo "  @x/cli README example, as it printed:"
  sed 's/^/    /' <<<"$output"
done

# The TypeScript examples type-check as a user's project would, under both resolutions.
for resolution in nodenext bundler; do
  module=$([ "$resolution" = nodenext ] && echo nodenext || echo esnext)
  cat >"tsconfig.$resolution.json" <<EOF
{
  "compilerOptions": {
    "target": "es2022", "module": "$module", "moduleResolution": "$resolution",
    "strict": true, "noEmit": true, "skipLibCheck": false, "types": ["node"],
    "allowImportingTsExtensions": true
  },
  "files": ["types-example.ts", "client-example.ts", "testing-example.ts", "mcp-example.ts"]
}
EOF
  "$node24" node_modules/typescript/bin/tsc -p "tsconfig.$resolution.json" ||
    fail "the examples do not type-check under moduleResolution $resolution"
  echo "consumer test: the examples type-check under moduleResolution $resolution"
done

# The server as an operator gets it: `npx @x/server` installs the packed server (with the packed
# @x/types, @x/client and @x/mcp it depends on) and starts it on Node 24, as the server README's Run says; it
# answers /livez with a browser made through the API, and stops on SIGTERM.
(cd "$root" && pnpm --filter @x/server pack --pack-destination "$work/tarballs" >/dev/null)
server_tarball=$(ls "$work"/tarballs/x-server-*.tgz)
server_listing=$(tar -tzf "$server_tarball")
for file in package/LICENSE package/README.md package/dist/main.js package/dist/bidi-worker.js package/dist/playwright-worker.js; do
  grep -qx "$file" <<<"$server_listing" || fail "@x/server: $file is missing from $(basename "$server_tarball")"
done
if grep -q '"workspace:' <<<"$(tar -xzOf "$server_tarball" package/package.json)"; then
  fail "@x/server keeps a workspace: range"
fi
operator="$work/operator"
mkdir -p "$operator"
(cd "$operator" && npm_quiet init -y >/dev/null &&
  npm_quiet install "$server_tarball" "$(ls "$work"/tarballs/x-types-*.tgz)" \
    "$(ls "$work"/tarballs/x-client-*.tgz)" "$(ls "$work"/tarballs/x-mcp-*.tgz)" >/dev/null) ||
  fail "the packed @x/server does not install"
version=$(PATH="$work/bin24:$PATH" "$operator/node_modules/.bin/xb-server" --version)
[ -n "$version" ] || fail "xb-server --version printed nothing"
server_data="$work/server-data"
PATH="$work/bin24:$PATH" XB_DATA_DIR="$server_data" XB_PORT=0 XB_TOKENS=operator-token \
  "$operator/node_modules/.bin/xb-server" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
server_url=""
for _ in $(seq 1 300); do
  server_url=$(sed -n 's/^xb-server listening at //p' "$work/server.err" | head -n 1)
  if [ -n "$server_url" ] || ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
[ -n "$server_url" ] || fail "the installed xb-server did not start: $(tail -n 5 "$work/server.err")"
"$node24" --input-type=module -e "
const url = process.argv[1];
if ((await fetch(url + '/livez')).status !== 200) throw new Error('livez');
const headers = { authorization: 'Bearer operator-token', 'content-type': 'application/json' };
const created = await fetch(url + '/browsers', { method: 'POST', headers, body: '{}' });
if (created.status !== 201) throw new Error('create: ' + created.status + ' ' + (await created.text()));
const { session_id } = await created.json();
if ((await fetch(url + '/browsers/' + session_id, { method: 'DELETE', headers })).status !== 204)
  throw new Error('delete');
" "$server_url" || { kill "$server_pid"; fail "the installed xb-server did not serve a browser"; }
kill -TERM "$server_pid"
wait "$server_pid" || { server_pid=""; fail "the installed xb-server did not stop cleanly on SIGTERM"; }
server_pid=""
echo "consumer test: npx @x/server $version: installed from its tarball, served a browser at $server_url, stopped on SIGTERM"

# On a Node.js older than they declare, each bin says so in one line and exits 1 (no stack trace):
# Node 20, the registry package `node`, first on the PATH.
mkdir -p "$work/node20" "$work/bin20"
(cd "$work/node20" && npm_quiet init -y >/dev/null && npm_quiet install "node@20" >/dev/null)
ln -sf "$work/node20/node_modules/node/bin/node" "$work/bin20/node"
for bin in "$app/node_modules/.bin/xb" "$app/node_modules/.bin/xb-fake" "$operator/node_modules/.bin/xb-server"; do
  status=0
  said=$(PATH="$work/bin20:$PATH" "$bin" --help 2>&1 >/dev/null) || status=$?
  name=$(basename "$bin")
  [ "$status" = 1 ] || fail "$name on Node 20 exited $status, not 1: $said"
  [[ "$said" =~ ^$name:\ needs\ Node\.js\ (22|24)\ or\ newer,\ and\ .*\ is\ Node\.js\ 20\.[0-9.]+\.$ ]] ||
    fail "$name on Node 20 did not say so in one line: $said"
done
echo "consumer test: xb, xb-fake and xb-server on Node 20 say the Node.js they need in one line, exit 1"

# A clone's way to put xb and xb-server on the PATH, as the README says: scripts/install-bins.sh
# (into a prefix of the run's own), then both run from the PATH, on the Node.js they installed
# with, though `node` on the PATH is Node 20; the server's start-up hint names `xb`, which works.
prefix="$work/prefix"
(cd "$root" && bash scripts/install-bins.sh --prefix "$prefix" >"$work/install-bins.out" 2>&1) ||
  fail "scripts/install-bins.sh failed: $(tail -n 20 "$work/install-bins.out")"
PATH="$prefix/bin:$work/bin20:$PATH" XB_DATA_DIR="$work/installed-data" XB_PORT=0 \
  xb-server >"$work/installed.out" 2>"$work/installed.err" &
server_pid=$!
server_url=""
for _ in $(seq 1 300); do
  server_url=$(sed -n 's/^xb-server listening at //p' "$work/installed.err" | head -n 1)
  if [ -n "$server_url" ] || ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
[ -n "$server_url" ] || fail "xb-server from install-bins.sh did not start: $(tail -n 5 "$work/installed.err")"
hint=$(grep -A1 '^  export XB_BASE_URL=' "$work/installed.err" | tail -n 1)
[ "$hint" = "  xb browsers create" ] || fail "the start-up hint names \"$hint\", not xb"
(
  export PATH="$prefix/bin:$work/bin20:$PATH" XB_BASE_URL="$server_url" XB_TOKEN
  XB_TOKEN=$(cat "$work/installed-data/token")
  xb browsers create --name installed --json >/dev/null
  xb browsers get installed --json | grep -q '"name":"installed"'
  xb browsers delete installed >/dev/null
) || { kill "$server_pid"; fail "xb from install-bins.sh did not drive the server"; }
kill -TERM "$server_pid"
wait "$server_pid" || { server_pid=""; fail "xb-server from install-bins.sh did not stop cleanly"; }
server_pid=""
echo "consumer test: scripts/install-bins.sh put xb and xb-server on the PATH; they ran on Node 24 beside Node 20, and the start-up hint's command worked"
