# Sourced by bootstrap.sh: installs the system packages the self-hosted server drives (Debian's
# chromium) when they are missing, as root through apt-get; otherwise says what to install.
need=()
if [ -z "${CHROME_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then need+=(chromium); fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${need[*]} from Debian's packages…" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "Missing ${need[*]}: install it (sudo apt-get install ${need[*]}) or set CHROME_PATH, then run again." >&2
    exit 1
  fi
fi
