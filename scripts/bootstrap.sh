# Sourced by the other scripts: makes pnpm available through corepack and installs the workspace.
# Works on a fresh machine with only the system Node (20 or newer) and the npm registry.
set -euo pipefail

if ! command -v node >/dev/null 2>&1; then
  echo "Node.js is not installed: install Node.js 20 or newer (e.g. apt-get install nodejs npm)." >&2
  exit 1
fi
if ! command -v corepack >/dev/null 2>&1; then
  npm install --global corepack@0.34.6
fi

# Never stop to ask before downloading pnpm (CI has no terminal).
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0
# The corepack that ships with Node 20 cannot verify the npm registry's current signing keys and
# refuses every download; the version is still pinned by packageManager in package.json.
export COREPACK_INTEGRITY_KEYS=0

# Scripts call `pnpm` by name (`pnpm run lint && turbo …`), so put corepack's pnpm shim on the PATH,
# in a folder of the checkout: nothing is written outside it.
shim_dir="$PWD/.corepack-bin"
if [ ! -x "$shim_dir/pnpm" ]; then
  mkdir -p "$shim_dir"
  corepack enable --install-directory "$shim_dir" pnpm
fi
export PATH="$shim_dir:$PATH"

# The registry package `node` (a root devDependency) puts Node 24 on the PATH of every pnpm script.
pnpm install --frozen-lockfile

# Debian's packages the server and the tests drive; a script that only builds (install-bins.sh)
# leaves them to the operator (xb_bootstrap_without_system_deps=1).
if [ -z "${xb_bootstrap_without_system_deps:-}" ]; then source scripts/system-deps.sh; fi
