import { HEADERS, INSTANCE_HOME } from '@x/types';
import { ServiceError } from './service-error.js';

/**
 * Every error the service model answers with, worded once: the fake and the server say exactly
 * the same thing for the same mistake.
 */

export { INSTANCE_HOME };

/** A 404 for a resource of `kind` that is not there. */
export function notFound(kind: string, idOrName: string): ServiceError {
  return new ServiceError('not_found', `No ${kind} "${idOrName}".`);
}

export const refusals = {
  atCapacity: (max: number) =>
    new ServiceError('rate_limited', `This service runs at most ${max} browsers at once.`, {
      headers: { [HEADERS.retryAfter]: '5' },
    }),
  /** A project's own cap (`max_concurrent_sessions`, …) is reached. */
  projectLimit: (project: string, limit: string, max: number, what: string) =>
    new ServiceError(
      'rate_limited',
      `Project ${project} is at its ${limit} limit (${max}): ${what}. Try again when one ends, or raise the limit (PATCH /org/projects/{id}/limits).`,
      { headers: { [HEADERS.retryAfter]: '5' } },
    ),
  shuttingDown: () =>
    new ServiceError('unavailable', 'The service is shutting down.', {
      headers: { [HEADERS.retryAfter]: '5' },
    }),
  draining: () =>
    new ServiceError(
      'unavailable',
      'This server is draining for a stop: no new browser starts on it. Try again: another node, or this one once it is back, takes it.',
      { headers: { [HEADERS.retryAfter]: '5' } },
    ),
  /** A cluster's node that runs an app's deployment (its code on that node's disk) is away. */
  deploymentAway: (app: string, version: string) =>
    new ServiceError(
      'unavailable',
      `The node that runs app "${app}" version "${version}" is away (lost, or stopped): its code is on that node's disk. Start that node again, or deploy the app again.`,
      { headers: { [HEADERS.retryAfter]: '10' } },
    ),
  browserFailedToStart: () => new ServiceError('internal_error', 'The browser failed to start.'),
  noGpu: () =>
    new ServiceError(
      'bad_request',
      'gpu: this server renders its browsers without a GPU, so gpu: true cannot be honoured; leave gpu out or false.',
      { details: [{ code: 'invalid_input', message: 'body.gpu: no GPU on this server' }] },
    ),
  /** The session's proxy is where the egress policy keeps sessions (and the server for them) from. */
  proxyUnreachable: (why: string) =>
    new ServiceError('bad_request', `The browser's proxy ${why}.`, {
      details: [{ code: 'invalid_input', message: `body.proxy_id: the proxy ${why}` }],
    }),
  /** The host ran out of open files, processes or memory for this call: nothing was kept of it. */
  outOfResources: (what: string) =>
    new ServiceError(
      'unavailable',
      `The server is out of open files, processes or memory and could not ${what}; nothing was kept of it. Retry shortly.`,
      { headers: { [HEADERS.retryAfter]: '5' } },
    ),
  invocationTakesNoBrowsers: (id: string) =>
    new ServiceError('conflict', `Invocation "${id}" has ended; it takes no new browsers.`),
  invocationEnded: (id: string, status: string) =>
    new ServiceError('conflict', `Invocation "${id}" has already ended (${status}).`),
  /** The cluster's node that holds a pool is lost or leaving: another takes the pool. */
  poolMoving: () =>
    new ServiceError(
      'unavailable',
      'The node that held this pool is lost: the pool moves to another node, which fills it again. Try again shortly.',
      { headers: { [HEADERS.retryAfter]: '2' } },
    ),
  poolNameTaken: (name: string) =>
    new ServiceError('conflict', `A browser pool named "${name}" already exists.`),
  poolHasAcquired: (idOrName: string, count: number) =>
    new ServiceError(
      'conflict',
      `Browser pool "${idOrName}" has ${count} acquired browser(s): release them, or delete with force=true.`,
    ),
  notAcquired: (sessionId: string) =>
    new ServiceError('conflict', `Browser session "${sessionId}" is not acquired.`),
  leaseEnded: (sessionId: string) =>
    new ServiceError(
      'conflict',
      `Browser session "${sessionId}" is not acquired: its lease has ended.`,
    ),
  notInPool: (idOrName: string, sessionId: string) =>
    new ServiceError(
      'not_found',
      `No browser session "${sessionId}" in browser pool "${idOrName}".`,
    ),
  extensionNameTaken: (name: string) =>
    new ServiceError('conflict', `An extension named "${name}" already exists.`),
  nameTaken: (kind: string, name: string) =>
    new ServiceError('conflict', `A ${kind} named "${name}" already exists.`),
  profileHeld: (idOrName: string, sessionId: string) =>
    new ServiceError(
      'conflict',
      `Profile "${idOrName}" is held for saving by browser session "${sessionId}": only one browser may save into a profile at a time. Delete that session first, or load the profile with save_changes false.`,
    ),
  namedByPool: (kind: string, idOrName: string, poolIdOrName: string) =>
    new ServiceError(
      'conflict',
      `${kind} "${idOrName}" is in the configuration of browser pool "${poolIdOrName}": change or delete the pool first.`,
    ),
  proxyInUse: (id: string, sessionIds: readonly string[]) =>
    new ServiceError(
      'conflict',
      `Proxy "${id}" routes ${sessionIds.length} running browser(s) (${sessionIds.slice(0, 5).join(', ')}): delete them, or delete with force=true (they keep their route until they end).`,
    ),
  credentialSealedElsewhere: (id: string) =>
    new ServiceError(
      'conflict',
      `The secrets of credential "${id}" were sealed with another key than this service's: set them again (PATCH /credentials/${id}).`,
    ),
  noTotpSecret: (id: string) =>
    new ServiceError(
      'conflict',
      `Credential "${id}" has no TOTP secret: set one with PATCH /credentials/${id} (totp_secret).`,
    ),
  proxyPasswordSealedElsewhere: (id: string) =>
    new ServiceError(
      'conflict',
      `The password of proxy "${id}" was sealed with another key than this service's: set it again (PATCH /proxies/${id} with config.password).`,
    ),
  browserNameTaken: (name: string, holder: string) =>
    new ServiceError(
      'conflict',
      `A running browser named "${name}" exists (${holder}): names are unique among the running browsers of a project.`,
    ),
  recordingBlocksResize: (browserId: string, replayId: string) =>
    new ServiceError(
      'conflict',
      `Browser "${browserId}" is being recorded (replay "${replayId}"): stop the recording, or send viewport.force to end it and record on at the new size.`,
    ),
  alreadyRecording: (browserId: string, replayId: string) =>
    new ServiceError(
      'conflict',
      `Browser "${browserId}" is already recording (replay "${replayId}").`,
    ),
  processesTurnedOff: () =>
    new ServiceError('forbidden', 'Process execution is turned off on this service.'),
  nameTooLong: (field: string, why: string) =>
    new ServiceError('bad_request', `${field} ${why}.`, {
      details: [{ code: 'invalid_input', message: `body.${field}: ${why}` }],
    }),
  outsideHome: (field: string, path: string) =>
    new ServiceError('bad_request', `${field} must be inside ${INSTANCE_HOME}.`, {
      details: [
        { code: 'invalid_input', message: `body.${field}: ${path} is outside ${INSTANCE_HOME}` },
      ],
    }),
  cwdMissing: (path: string) =>
    new ServiceError('bad_request', `cwd ${path} does not exist on the instance.`),
  cwdNotDirectory: (path: string) =>
    new ServiceError('bad_request', `cwd ${path} is not a directory.`),
  tooManyProcesses: (browserId: string, max: number) =>
    new ServiceError(
      'conflict',
      `Browser "${browserId}" runs ${max} processes, the most it may: wait for one to end, or kill one.`,
    ),
  playwrightBusy: (browserId: string, max: number) =>
    new ServiceError(
      'conflict',
      `Browser "${browserId}" has ${max} Playwright calls waiting, the most it may: wait for them to end.`,
    ),
  inputClosed: () =>
    new ServiceError(
      'conflict',
      'The process has no input to write to: it has exited, or it was not spawned with one.',
    ),
  inputFull: (max: number) =>
    new ServiceError(
      'rate_limited',
      `The process has not read the ${max} bytes of input it holds: wait for it to read them.`,
    ),
  sizeWithoutTty: () =>
    new ServiceError(
      'bad_request',
      'rows and cols size a terminal: give them with allocate_tty: true.',
      {
        details: [{ code: 'invalid_input', message: 'body.rows: only with allocate_tty' }],
      },
    ),
  notTerminal: () =>
    new ServiceError(
      'bad_request',
      'The process is not on a terminal: spawn it with allocate_tty.',
    ),
  tooManyWatches: (browserId: string, max: number) =>
    new ServiceError(
      'conflict',
      `Browser "${browserId}" has ${max} watches, the most it may: stop one first.`,
    ),
  /** A coordinate outside the browser's viewport; `field` is its dotted path in the body. */
  outsideScreen: (field: string, bound: number, dimension: 'width' | 'height') =>
    new ServiceError(
      'bad_request',
      `${field} must be less than ${bound}, the viewport's ${dimension}.`,
      {
        details: [
          {
            code: 'invalid_input',
            message: `body.${field}: must be < ${bound} (the viewport's ${dimension})`,
          },
        ],
      },
    ),
  /** An action of a batch failed: the error says which, and why; the rest did not run. */
  actionFailed: (index: number, type: string, error: unknown) =>
    error instanceof ServiceError
      ? new ServiceError(error.code, `Action ${index} (${type}) failed: ${error.message}`, {
          ...(error.details ? { details: error.details } : {}),
          headers: { ...error.headers },
        })
      : new ServiceError(
          'internal_error',
          `Action ${index} (${type}) failed: the browser did not take it. Later actions did not run.`,
        ),
  tooManyFileOperations: (browserId: string, max: number) =>
    new ServiceError(
      'rate_limited',
      `Browser "${browserId}" runs ${max} file operations at once, the most it may: retry when one ends.`,
      { headers: { [HEADERS.retryAfter]: '1' } },
    ),
  tooManyCurls: (browserId: string, max: number) =>
    new ServiceError(
      'rate_limited',
      `Browser "${browserId}" makes ${max} curl requests at once, the most it may: retry when one ends.`,
      { headers: { [HEADERS.retryAfter]: '1' } },
    ),
  curlFailed: (url: string, reason: string) =>
    new ServiceError('bad_gateway', `The browser's request to ${url} failed: ${reason}.`),
  curlTimedOut: (url: string, ms: number) =>
    new ServiceError(
      'gateway_timeout',
      `The browser's request to ${url} did not end within ${ms} ms (timeout_ms).`,
    ),
  curlTooLarge: (url: string, max: number) =>
    new ServiceError(
      'bad_gateway',
      `The answer of ${url} has a body over ${max} bytes, the most curl returns: fetch it with a process, or in pieces (a Range header).`,
    ),
  tooManyLogStreams: (browserId: string, max: number) =>
    new ServiceError(
      'rate_limited',
      `Browser "${browserId}" has ${max} log and telemetry streams open, the most it may: close one first.`,
      { headers: { [HEADERS.retryAfter]: '1' } },
    ),
  watchOfFile: (path: string) =>
    new ServiceError('bad_request', `${path} is a file; watch a directory.`),
  /** A recursive watch over more directories than one session may watch (one inotify entry each). */
  watchTooLarge: (path: string, max: number) =>
    new ServiceError(
      'payload_too_large',
      `${path} holds more than ${max} directories, the most a session may watch: watch a directory inside it, or not recursively.`,
    ),
  /** The session's other watches hold the inotify entries this one needs. */
  watchEntriesTaken: (needed: number, left: number, max: number) =>
    new ServiceError(
      'conflict',
      `This watch needs ${needed} inotify entries (one per directory), and its browser's other watches leave ${left} of its ${max}: stop a watch first.`,
    ),
  /** Every session's watches together hold what the server gives them. */
  watchEntriesExhausted: (max: number) =>
    new ServiceError(
      'unavailable',
      `The server's watches hold all ${max} inotify entries it gives them: retry when some end.`,
      { headers: { [HEADERS.retryAfter]: '5' } },
    ),
  /** The server's disk is full: nothing was made. */
  insufficientStorage: (what: string) =>
    new ServiceError(
      'insufficient_storage',
      `The server's disk is too full to ${what}; nothing was made. Free space on it, or delete what is no longer needed.`,
    ),
  /** A dependency of the host is missing: what to install is named. */
  missingTool: (what: string, tool: string, packageName: string) =>
    new ServiceError(
      'unavailable',
      `${what} need ${tool}, which is not installed on this server (apt-get install ${packageName}).`,
    ),
} as const;

/**
 * Whether an error says the disk is full (ENOSPC, a quota, SQLite's "disk is full"): the one
 * failure of the host that a caller is told about (507) rather than hidden behind a 500.
 */
/**
 * Whether an error says the host is out of a resource a later call may find again: open files
 * (EMFILE, ENFILE), processes (EAGAIN from fork) or memory (ENOMEM). Such a call is 503, not 500.
 */
export function isOutOfResources(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EMFILE' || code === 'ENFILE' || code === 'EAGAIN' || code === 'ENOMEM') return true;
  return (
    error instanceof Error &&
    /\b(EMFILE|ENFILE|EAGAIN|ENOMEM)\b|Too many open files|Cannot allocate memory/.test(
      error.message,
    )
  );
}

export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  return error instanceof Error && /disk is full|SQLITE_FULL|ENOSPC/i.test(error.message);
}
