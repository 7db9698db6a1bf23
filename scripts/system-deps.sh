# Sourced by bootstrap.sh: installs the Debian packages the self-hosted server drives when they are
# missing (chromium, xvfb for headed browsers, bubblewrap for processes, ffmpeg for replays,
# fonts so screenshots show CJK and emoji, e2fsprogs for each session's own disk, curl as the
# out-of-process HTTP client of the large-file tests, jq for the xb README example the consumer
# test runs, nginx and openssl for the TLS reverse-proxy test (openssl also makes the system
# tests' CA), libnss3-tools (certutil) to hand XB_SESSION_CA_FILE's authorities to browsers, nftables and iproute2 for the
# sessions' egress policy, slirp4netns for that policy on a server that is not root, inotify-tools for directory watches (run
# in each session's sandbox), python3 for a test's sender of UDP, postgresql for the server's
# suite on PostgreSQL, in a throw-away cluster of the test run), as root through
# apt-get; otherwise says what to install.
is_installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
need=()
if [ -z "${CHROME_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then need+=(chromium); fi
if command -v dpkg-query >/dev/null 2>&1; then
  for package in xvfb bubblewrap ffmpeg e2fsprogs curl jq nginx-light openssl libnss3-tools fonts-noto-cjk fonts-noto-color-emoji nftables iproute2 slirp4netns inotify-tools python3 postgresql; do is_installed "$package" || need+=("$package"); done
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${need[*]} from Debian's packages…" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "Missing ${need[*]}: install them (sudo apt-get install ${need[*]}) or set CHROME_PATH, then run again." >&2
    exit 1
  fi
fi
