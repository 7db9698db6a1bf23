/**
 * The shell scripts file operations run inside a session's sandbox, as its user: each resolves its
 * paths there (links followed as the session's own processes would follow them), checks them, and
 * acts with coreutils. A refusal is reported on stderr as `xb-fail:<kind>:<path>` followed by a NUL
 * and exit status 3; the server turns it into a FileFailure. A path is passed as an argument,
 * never spliced into a script.
 */

/** Functions every script starts with. */
export const PRELUDE = String.raw`
set -u
home=/home/browser
fail() { printf 'xb-fail:%s:%s\0' "$1" "$2" >&2; exit 3; }
inside() { case "$1" in "$home"|"$home"/*) return 0;; esac; return 1; }
# full PATH: every link followed; refused outside the home.
full() { r=$(realpath -m -- "$1" 2>/dev/null) || fail missing "$1"; inside "$r" || fail outside "$1"; }
# last PATH: the parent's links followed, not the last part's (a link itself is deleted or moved).
last() { p=$(realpath -m -- "$(dirname -- "$1")" 2>/dev/null) || fail missing "$1"; r="$p/$(basename -- "$1")"; inside "$p" || fail outside "$1"; }
# parents PATH: every existing ancestor of PATH must be a directory, else it is in the way.
parents() { a=$(dirname -- "$1"); while [ ! -e "$a" ]; do a=$(dirname -- "$a"); done; [ -d "$a" ] || fail notDirectory "$a"; }
# why MESSAGE PATH: the failure a coreutils message stands for.
why() { case "$1" in *"No space"*|*"quota"*) fail full "$2";; *"ermission denied"*|*"not permitted"*) fail denied "$2";; esac; printf '%s\n' "$1" >&2; exit 1; }
kind() { if [ -d "$1" ]; then :; elif [ -f "$1" ]; then :; else fail notFile "$1"; fi; }
# readable PATH: a file the session may read (every link followed); prints its size and a newline.
readable() { full "$1"; [ -e "$r" ] || fail missing "$r"; [ -d "$r" ] && fail isDirectory "$r"; [ -f "$r" ] || fail notFile "$r"; [ -r "$r" ] || fail denied "$r"; stat -c '%s' -- "$r"; }
`;

/** Entries as `find -printf` writes them: name, type (links followed), size, mode, mtime; NUL-ended. */
const ENTRY_FORMAT = String.raw`%f\0%Y\0%s\0%m\0%T@\0`;

export const FILE_SCRIPTS = {
  /** $1 path: prints its size and a newline, then its bytes. */
  read: `${PRELUDE}
readable "$1"
exec cat -- "$r"`,

  /**
   * $1 path, $2 \`end\` or \`start\`: checked as read is, prints its size and a newline, then its
   * bytes as a log is read: from the end on, following the name (tail -F: a file replaced or cut
   * shorter is read again from its start) until it is ended; or from the start to its end.
   */
  follow: `${PRELUDE}
readable "$1"
[ "$2" = end ] || exec cat -- "$r"
exec tail -c 0 -F -s 0.2 -- "$r" 2>/dev/null`,

  /**
   * $1 path, $2 octal mode, $3 a token: stdin becomes the file. Written beside it under a hidden
   * name (`.xb-partial-<token>`), then renamed over it only once the server says `commit` on fd 3,
   * having seen the whole body: the end of stdin alone commits nothing (a cut body also ends it).
   * A write that fails leaves nothing, and one ended from outside is cleaned up by `discard`.
   */
  write: String.raw`${PRELUDE}
full "$1"
[ -d "$r" ] && fail isDirectory "$r"
parents "$r"
d=$(dirname -- "$r")
out=$(mkdir -p -- "$d" 2>&1) || why "$out" "$d"
t="$d/.xb-partial-$3"
trap 'rm -f -- "$t"' EXIT
out=$( { cat > "$t"; } 2>&1 ) || why "$out" "$r"
IFS= read -r go <&3 || exit 3
[ "$go" = commit ] || exit 3
chmod "$2" -- "$t"
[ -d "$r" ] && fail isDirectory "$r"
out=$(mv -fT -- "$t" "$r" 2>&1) || why "$out" "$r"
printf 'ok\n'`,

  /** $1 path, $2 most entries: the resolved path, NUL, then each entry (ENTRY_FORMAT). */
  list: String.raw`${PRELUDE}
full "$1"
[ -e "$r" ] || fail missing "$r"
[ -d "$r" ] || fail notDirectory "$r"
[ -r "$r" ] && [ -x "$r" ] || fail denied "$r"
n=$(find "$r" -mindepth 1 -maxdepth 1 -printf x | head -c $(($2 + 1)) | wc -c)
[ "$n" -gt "$2" ] && fail tooMany "$r"
printf '%s\0' "$r"
exec find "$r" -mindepth 1 -maxdepth 1 -printf '${ENTRY_FORMAT}'`,

  /** $1 path, $2 token: removes what a write of that token left when it was ended from outside. */
  discard: `${PRELUDE}
full "$1"
rm -f -- "$(dirname -- "$r")/.xb-partial-$2"`,

  /** $1 path: the resolved path, NUL, then its entry (ENTRY_FORMAT). */
  info: String.raw`${PRELUDE}
full "$1"
[ -e "$r" ] || fail missing "$r"
printf '%s\0' "$r"
exec find "$r" -maxdepth 0 -printf '${ENTRY_FORMAT}'`,

  /** $1 path, $2 octal mode: like mkdir -p; one there already is fine. */
  makeDirectory: `${PRELUDE}
full "$1"
[ -d "$r" ] && exit 0
[ -e "$r" ] && fail notDirectory "$r"
parents "$r"
out=$(mkdir -p -- "$(dirname -- "$r")" 2>&1) || why "$out" "$r"
out=$(mkdir -m "$2" -- "$r" 2>&1) || why "$out" "$r"`,

  /** $1 path: a file or link removed. */
  removeFile: `${PRELUDE}
last "$1"
[ -L "$r" ] || [ -e "$r" ] || fail missing "$r"
[ -d "$r" ] && [ ! -L "$r" ] && fail isDirectory "$r"
out=$(rm -f -- "$r" 2>&1) || why "$out" "$r"`,

  /** $1 path: a directory (not a link to one) removed with all it holds. */
  removeDirectory: `${PRELUDE}
last "$1"
[ -L "$r" ] || [ -e "$r" ] || fail missing "$r"
[ -d "$r" ] && [ ! -L "$r" ] || fail notDirectory "$r"
[ "$r" = "$home" ] && fail outside "$r"
out=$(rm -rf --one-file-system -- "$r" 2>&1) || why "$out" "$r"`,

  /** $1 from, $2 to: renamed; to must not exist, its parent must be a directory. */
  move: `${PRELUDE}
last "$1"; s="$r"
last "$2"; d="$r"
[ -L "$s" ] || [ -e "$s" ] || fail missing "$1"
[ -L "$d" ] || [ -e "$d" ] && fail exists "$2"
[ -e "$p" ] || fail missing "$p"
[ -d "$p" ] || fail notDirectory "$p"
case "$d/" in "$s"/*) fail exists "$2";; esac
out=$(mv -T -- "$s" "$d" 2>&1) || why "$out" "$2"`,

  /** $1 path, $2 octal mode. */
  setMode: `${PRELUDE}
full "$1"
[ -e "$r" ] || fail missing "$r"
out=$(chmod "$2" -- "$r" 2>&1) || why "$out" "$r"`,

  /**
   * $1 directory, $2 bytes it will hold: made if missing, checked for room, then a tar on stdin is
   * unpacked into it.
   */
  unpack: `${PRELUDE}
full "$1"
[ -e "$r" ] && [ ! -d "$r" ] && fail notDirectory "$r"
parents "$r"
out=$(mkdir -p -- "$r" 2>&1) || why "$out" "$r"
free=$(stat -f -c '%a*%S' -- "$r")
[ $(( $free )) -lt "$2" ] && fail full "$r"
out=$(tar -x --no-same-owner --no-overwrite-dir -C "$r" -f - 2>&1) || why "$out" "$r"`,

  /**
   * $1 directory, $2 most entries: prints ok and a newline once it is known to be a directory
   * small enough, then a tar of it (links kept as links, never followed). A folder in use (a live
   * profile) changes while it is read: a file gone is left out, one changed is as it was read.
   */
  pack: String.raw`${PRELUDE}
full "$1"
[ -e "$r" ] || fail missing "$r"
[ -d "$r" ] || fail notDirectory "$r"
n=$(find "$r" -mindepth 1 -printf x 2>/dev/null | head -c $(($2 + 1)) | wc -c)
[ "$n" -gt "$2" ] && fail tooMany "$r"
printf 'ok\n'
tar -c --format=gnu --warning=no-file-changed --warning=no-file-removed --warning=no-file-shrank -C "$r" .
s=$?
# 1: a file changed or went while it was read (a live profile): the archive is whole; 2: it failed.
[ "$s" -eq 1 ] && exit 0
exit "$s"`,

  /**
   * $1 a folder, then paths relative to it: a tar of those that exist (links kept as links, never
   * followed), or an empty tar when the folder is not there.
   */
  packPaths: String.raw`${PRELUDE}
full "$1"
shift
[ -d "$r" ] || exec tar -c --format=gnu -f - -T /dev/null
cd -- "$r" || fail missing "$r"
for p in "$@"; do if [ -e "$p" ] || [ -L "$p" ]; then printf '%s\0' "$p"; fi; done |
  tar -c --format=gnu -f - --null -T -`,
} as const;

/** A script's name. */
export type FileScript = keyof typeof FILE_SCRIPTS;
