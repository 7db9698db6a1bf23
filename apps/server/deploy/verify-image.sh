#!/usr/bin/env bash
# Builds the xb-server image from a clean clone of this repository's HEAD and runs it for real
# with podman: health, readiness, a browser made and driven through the API behind the egress
# policy (a page by host name over HTTPS among it), a Kernel app deployed from the registry and
# invoked, a token rotated with SIGHUP, a graceful stop. Prints what it checked; exits 1 at the first check that fails.
#
#   bash apps/server/deploy/verify-image.sh
#
# Needs root (for debootstrap) or an existing base image. Settings, all optional:
#   XB_IMAGE_BASE   the Debian bookworm image to build on; default: one made here with
#                   debootstrap (localhost/xb-debian:bookworm, kept for the next run)
#   XB_BUILD_CA     a PEM file the build should trust (a network that inspects TLS); default:
#                   the certificates this host added to its own (/usr/local/share/ca-certificates)
#   XB_KEEP_IMAGE=1 keep the image built (localhost/xb-server:verify); default: removed
#   XB_VERIFY_PORT  the loopback port the container is published on (default 18080)
set -euo pipefail

REPO="$(cd "$(dirname "$0")/../../.." && pwd)"
BASE="${XB_IMAGE_BASE:-localhost/xb-debian:bookworm}"
PORT="${XB_VERIFY_PORT:-18080}"
IMAGE=localhost/xb-server:verify
NAME="xb-verify-$$"
VOLUME="xb-verify-data-$$"
PUBLIC=https://browsers.example.com
WORK="$(mktemp -d)"

say() { printf '%s\n' "$*"; }
fail() {
  say "FAILED: $*"
  podman logs --tail 20 "$NAME" 2>&1 | sed 's/^/  container: /' || true
  exit 1
}
cleanup() {
  podman rm -f -v -t 0 "$NAME" > /dev/null 2>&1 || true
  podman volume rm -f "$VOLUME" > /dev/null 2>&1 || true
  [ "${XB_KEEP_IMAGE:-}" = 1 ] || podman rmi -f "$IMAGE" > /dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

updated=''
need() {
  command -v "$1" > /dev/null && return
  if [ "$(id -u)" = 0 ]; then
    [ -n "$updated" ] || apt-get update -qq
    updated=1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" > /dev/null
  else
    say "verify-image: $1 is missing (apt-get install $2)"
    exit 1
  fi
}
need podman podman
need curl curl
need python3 python3

# The base: Debian bookworm made with debootstrap from Debian's own packages.
if ! podman image exists "$BASE"; then
  [ "$BASE" = localhost/xb-debian:bookworm ] || fail "no image $BASE"
  need debootstrap debootstrap
  say "== making $BASE with debootstrap"
  debootstrap --variant=minbase bookworm "$WORK/rootfs" http://deb.debian.org/debian > "$WORK/debootstrap.log" 2>&1 ||
    { tail -5 "$WORK/debootstrap.log"; fail "debootstrap"; }
  tar -C "$WORK/rootfs" -c . | podman import - "$BASE" > /dev/null
  rm -rf "$WORK/rootfs"
fi

# The runtime: podman's own, or runc where crun refuses this host's cgroups (a v1/v2 mix).
# Limits set explicitly, within what the host allows: some hosts refuse podman's defaults
# (a million open files, four million processes).
files=$(ulimit -Hn)
[ "$files" = unlimited ] || [ "$files" -gt 65536 ] && files=65536
LIMITS=(--ulimit "nofile=$files:$files" --ulimit nproc=32768:32768)
RUNTIME=()
if ! podman run --rm "${LIMITS[@]}" "$BASE" true > "$WORK/probe.log" 2>&1; then
  need runc runc
  podman --runtime runc run --rm "${LIMITS[@]}" "$BASE" true > /dev/null 2>&1 ||
    fail "no container runs on this host: $(cat "$WORK/probe.log")"
  RUNTIME=(--runtime runc)
  say "== podman's default runtime refused this host ($(tail -1 "$WORK/probe.log")); using runc"
fi

say "== building $IMAGE from a clean clone of $(git -C "$REPO" rev-parse --short HEAD)"
git clone -q "$REPO" "$WORK/src"
BUILD_ARGS=(--build-arg "BASE=$BASE")
if [ -n "${XB_BUILD_CA:-}" ]; then
  BUILD_ARGS+=(--build-arg "EXTRA_CA=$(cat "$XB_BUILD_CA")")
elif compgen -G '/usr/local/share/ca-certificates/*.crt' > /dev/null; then
  BUILD_ARGS+=(--build-arg "EXTRA_CA=$(cat /usr/local/share/ca-certificates/*.crt)")
fi
# chroot isolation: build steps need no runtime, so a host that refuses one still builds.
started=$SECONDS
podman build --isolation=chroot --format docker --layers=false "${BUILD_ARGS[@]}" -f "$WORK/src/apps/server/deploy/Containerfile" \
  -t "$IMAGE" "$WORK/src" > "$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log"; fail "podman build"; }
say "built in $((SECONDS - started)) s: $(podman image inspect --format '{{.Size}}' "$IMAGE" | awk '{printf "%.0f MB", $1/1e6}')"
say "user: $(podman image inspect --format '{{.Config.User}}' "$IMAGE"), volumes: $(podman image inspect --format '{{range $k, $v := .Config.Volumes}}{{$k}} {{end}}' "$IMAGE")"
# One-off runs of the image, without its health check (whose timer needs systemd).
once() { podman "${RUNTIME[@]}" run --rm --no-healthcheck "${LIMITS[@]}" "$@"; }
say "version: $(once "$IMAGE" --version)"
say "tools: $(once --entrypoint sh "$IMAGE" -c \
  'node --version; chromium --version; ffmpeg -version | head -1; bwrap --version; Xvfb -help 2>&1 | head -0 && echo Xvfb' | paste -sd ',' -)"

# A page by host name over HTTPS: the npm registry, the one public name this machine resolves;
# its address is reserved here, so it is opened as an operator opens a private destination.
REGISTRY_HOST="$( (npm config get registry 2> /dev/null || echo https://registry.npmjs.org/) | sed -E 's#^https?://([^/:]+).*#\1#')"
REGISTRY_IP="$(getent ahostsv4 "$REGISTRY_HOST" | awk 'NR == 1 { print $1 }')"
[ -n "$REGISTRY_IP" ] || fail "$REGISTRY_HOST does not resolve on this host"

# The CAs this host trusts beyond the public ones (a network that inspects TLS, as this one may)
# are the sessions' too, given as an operator gives them: XB_SESSION_CA_FILE.
SESSION_CA=()
if [ -n "${XB_BUILD_CA:-}" ]; then cat "$XB_BUILD_CA" > "$WORK/session-ca.pem"
elif compgen -G '/usr/local/share/ca-certificates/*.crt' > /dev/null; then
  cat /usr/local/share/ca-certificates/*.crt > "$WORK/session-ca.pem"
fi
if [ -s "$WORK/session-ca.pem" ]; then
  chmod 0644 "$WORK/session-ca.pem"
  SESSION_CA=(-v "$WORK/session-ca.pem:/etc/xb/session-ca.pem:ro" -e XB_SESSION_CA_FILE=/etc/xb/session-ca.pem)
fi

# The data directory is a volume; the tokens file lives in it, written as the image's user.
podman volume create "$VOLUME" > /dev/null
once -v "$VOLUME:/data" --entrypoint sh "$IMAGE" \
  -c 'umask 077; printf "xb_first\nread-only xb_reader\n" > /data/tokens'
podman "${RUNTIME[@]}" run -d --name "$NAME" --log-driver k8s-file "${LIMITS[@]}" \
  --security-opt 'unmask=/proc/*' --device /dev/net/tun -p "127.0.0.1:$PORT:8080" -v "$VOLUME:/data" \
  -e "XB_PUBLIC_URL=$PUBLIC" -e XB_TOKENS_FILE=/data/tokens -e "XB_ALLOW_NETWORKS=$REGISTRY_IP/32" "${SESSION_CA[@]}" \
  "$IMAGE" > /dev/null 2> "$WORK/run.log"
API="http://127.0.0.1:$PORT"

for _ in $(seq 1 100); do
  curl -fsS "$API/livez" > /dev/null 2>&1 && break
  sleep 0.2
done
[ "$(curl -s "$API/livez")" = '{"status":"ok"}' ] || fail "/livez"
say "/livez: $(curl -s "$API/livez")"
ready="$(curl -s -w ' %{http_code}' "$API/readyz")"
say "/readyz: $ready"
podman healthcheck run "$NAME" > /dev/null 2>&1 || fail "the image's health check says unhealthy"
say "health check (the image's HEALTHCHECK): healthy"
[ "${ready##* }" = 200 ] || fail "/readyz is not 200"

call() { # call TOKEN METHOD PATH [BODY]: prints the body, then the status on a line of its own
  curl -sS -X "$2" -H "authorization: Bearer $1" -H 'content-type: application/json' \
    ${4:+--data "$4"} -w '\n%{http_code}' "$API$3"
}
status() { tail -1 <<< "$1"; }
body() { sed '$d' <<< "$1"; }

created="$(call xb_first POST /browsers '{}')"
[ "$(status "$created")" = 201 ] || fail "create: $created"
id="$(body "$created" | sed -E 's/.*"session_id":"([^"]+)".*/\1/')"
cdp="$(body "$created" | sed -E 's/.*"cdp_ws_url":"([^"?]+)[?"].*/\1/')"
say "browser $id: cdp_ws_url $cdp?jwt=…"
[ "$cdp" = "wss://browsers.example.com/browsers/$id/cdp" ] || fail "cdp_ws_url is not under $PUBLIC"
curl -sS -X POST -H 'authorization: Bearer xb_first' -H 'content-type: application/json' --data '{}' \
  -o "$WORK/shot.png" -w '' "$API/browsers/$id/computer/screenshot"
[ "$(head -c 8 "$WORK/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "screenshot is not a PNG"
say "screenshot: PNG, $(stat -c %s "$WORK/shot.png") bytes"
ran="$(call xb_first POST "/browsers/$id/process/exec" '{"command":"sh","args":["-c","id -un; ls /home/browser | head -3"]}')"
[ "$(status "$ran")" = 200 ] || fail "exec: $ran"
say "exec in the session, as $(body "$ran" | sed -E 's/.*"stdout_b64":"([^"]*)".*/\1/' | base64 -d | paste -sd ' ' -): $(body "$ran" | head -c 120)"
fetched="$(call xb_first POST "/browsers/$id/curl" "{\"url\":\"https://$REGISTRY_HOST/-/ping\"}")"
if [ "$(status "$fetched")" != 200 ]; then
  # What the session itself sees of the name and its resolver, to say why.
  seen="$(call xb_first POST "/browsers/$id/process/exec" "{\"command\":\"sh\",\"args\":[\"-c\",\"cat /etc/resolv.conf; getent hosts $REGISTRY_HOST\"]}")"
  say "the session's resolver: $(body "$seen" | sed -E 's/.*"stdout_b64":"([^"]*)".*/\1/' | base64 -d | paste -sd ' ' -)"
  fail "a page by host name: $fetched"
fi
grep -q '"status":200' <<< "$(body "$fetched")" || fail "a page by host name: $(body "$fetched" | head -c 300)"
say "a page by host name over HTTPS, fetched by the session's browser (its resolver, its TLS${SESSION_CA:+, the CAs of XB_SESSION_CA_FILE}): https://$REGISTRY_HOST/-/ping answered 200"
watched="$(call xb_first POST "/browsers/$id/fs/watch" '{"path":"/home/browser","recursive":true}')"
[ "$(status "$watched")" = 201 ] || fail "watch: $watched"
say "watch from the session's sandbox (inotifywait, its own inotify limit): $(body "$watched")"

# A Kernel app that depends on @onkernel/sdk: installed from the registry in its sandbox, then
# invoked, as the public Kernel SDK deploys and invokes one.
mkdir -p "$WORK/app"
printf '%s\n' '{"name":"image-greeter","type":"module","dependencies":{"@onkernel/sdk":"0.84.0"}}' > "$WORK/app/package.json"
printf '%s\n' "import { Kernel } from '@onkernel/sdk';" \
  "new Kernel().app('image-greeter').action('greet', async (_ctx, payload) => ({ greeting: 'hello ' + payload?.name }));" \
  > "$WORK/app/app.js"
python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); [z.write(sys.argv[2] + "/" + n, n) for n in ("package.json", "app.js")]; z.close()' \
  "$WORK/app.zip" "$WORK/app"
deployed="$(curl -sS -X POST -H 'authorization: Bearer xb_first' -F "file=@$WORK/app.zip" \
  -F entrypoint_rel_path=app.js -F version=v1 -w '\n%{http_code}' "$API/deployments")"
[ "$(status "$deployed")" = 201 ] || fail "deploy: $deployed"
deployment="$(body "$deployed" | sed -E 's/.*"id":"([^"]+)".*/\1/')"
for _ in $(seq 1 240); do
  state="$(body "$(call xb_first GET "/deployments/$deployment")" | sed -E 's/.*"status":"([^"]+)".*/\1/')"
  [ "$state" = running ] || [ "$state" = failed ] && break
  sleep 0.5
done
[ "$state" = running ] || fail "the deploy did not run: $(body "$(call xb_first GET "/deployments/$deployment")")"
invoked="$(call xb_first POST /invocations '{"app_name":"image-greeter","action_name":"greet","version":"v1","payload":"{\"name\":\"image\"}","async":false}')"
grep -q 'hello image' <<< "$(body "$invoked")" || fail "invoke: $invoked"
say "a Kernel app with @onkernel/sdk from the registry: deployed ($deployment), invoked: its action answered \"hello image\""

# A token rotated without a restart: the file rewritten in the volume, then SIGHUP.
podman exec "$NAME" sh -c 'umask 077; printf "xb_second\n" > /data/tokens.new && mv /data/tokens.new /data/tokens'
podman kill --signal HUP "$NAME" > /dev/null 2>&1
for _ in $(seq 1 50); do
  [ "$(status "$(call xb_second GET /browsers)")" = 200 ] && break
  sleep 0.1
done
[ "$(status "$(call xb_second GET /browsers)")" = 200 ] || fail "the added token is refused"
[ "$(status "$(call xb_first GET /browsers)")" = 401 ] || fail "the removed token still works"
say "tokens: rotated by SIGHUP, the session still there: $(status "$(call xb_second GET "/browsers/$id")")"
metrics="$(curl -sS -H 'authorization: Bearer xb_second' "$API/metrics")"
grep -q '^xb_sessions{state="active"} 1$' <<< "$metrics" || fail "/metrics does not count the session"
say "/metrics: $(grep -c '^xb_' <<< "$metrics") samples, $(grep '^xb_sessions{state="active"}' <<< "$metrics")"
[ "$(status "$(call xb_second DELETE "/browsers/$id")")" = 204 ] || fail "delete"

podman stop -t 40 "$NAME" > /dev/null 2>&1
code="$(podman inspect --format '{{.State.ExitCode}}' "$NAME")"
[ "$code" = 0 ] || fail "the server stopped with $code"
# stdout alone (the log file tags each line with its stream): JSON lines only.
logs="$(sed -nE 's/^[^ ]+ stdout [FP] //p' "$(podman container inspect --format '{{.HostConfig.LogConfig.Path}}' "$NAME")")"
[ -n "$logs" ] || fail "nothing was logged on stdout"
non_json="$(grep -cv '^{' <<< "$logs" || true)"
[ "$non_json" = 0 ] || fail "$non_json log lines on stdout are not JSON"
grep -q xb_second <<< "$logs" && fail "a token reached the log"
say "stopped gracefully (exit 0); stdout: $(wc -l <<< "$logs") JSON lines, no token"
# Not root inside, with /dev/net/tun: the egress policy held through the user-mode route.
grep -q 'out through slirp4netns' <<< "$logs" || fail "the egress policy did not start its user-mode route"
say "egress: each session in a user-mode network of its own (slirp4netns), no XB_ALLOW_NETWORKS=*"
say "verify-image: passed"
