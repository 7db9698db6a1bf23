/** The exit codes of `xb`, as `xb --help` and the README list them. */
export const EXIT_CODES = {
  /** It worked. */
  ok: 0,
  /** Something unexpected failed (a bug: please report it). */
  unexpected: 1,
  /** Usage or bad input: a missing argument, a bad number, an unreadable file, invalid fields. */
  usage: 2,
  /** The service answered with an error, could not be reached, or could not do it in time. */
  api: 3,
  /** Authentication or permission: no valid token (401), or not allowed (403). */
  auth: 4,
  /** What was named does not exist (404). */
  notFound: 5,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

/** One exit code of `xb`. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** The exit codes as `--help` prints them. */
export const EXIT_CODES_HELP = `Exit codes:
  0    ok
  1    unexpected error
  2    usage or bad input
  3    API error (the service answered an error, was unreachable, or timed out)
  4    authentication or permission (401, 403)
  5    not found (404)
  130  interrupted (Ctrl-C)`;
