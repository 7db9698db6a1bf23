/**
 * The `processes` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */
import { execServerTimeMs } from '@x/types';
import { defineCall } from '../calls/define-call.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type { EventStream } from '../streams/event-stream.js';
import { readStreamBody } from '../streams/read-body.js';

// Records

export interface ExecResult {
  /** its exit code (128+signal when a signal ended it) */
  exit_code: number;
  /** its standard output, base64 */
  stdout_b64: string;
  /** its standard error, base64 */
  stderr_b64: string;
  /** how long it ran, in milliseconds */
  duration_ms: number;
  /** output bytes left out past the kept limit */
  dropped_bytes?: number | undefined;
}

export type ProcessSignal = 'TERM' | 'KILL' | 'INT' | 'HUP';

export interface KillResult {
  /** true once the signal was sent */
  ok: true;
}

export type ProcessOutputEvent =
  | {
      /** a chunk of standard output */
      type: 'stdout';
      /** the bytes, base64 */
      data_b64: string;
    }
  | {
      /** a chunk of standard error */
      type: 'stderr';
      /** the bytes, base64 */
      data_b64: string;
    }
  | {
      /** the process ended */
      type: 'exit';
      /** its exit code */
      exit_code: number;
    }
  | {
      /** output was lost: the reader was too slow */
      type: 'overflow';
      /** how many bytes were lost */
      lost_bytes: number;
    };

export interface SpawnedProcess {
  /** the process's id */
  process_id: string;
  /** its operating-system pid */
  pid: number;
  /** when it started (ISO 8601 UTC) */
  started_at: string;
}

export type ProcessState = 'running' | 'exited';

export interface ProcessStatus {
  /** running or exited */
  state: ProcessState;
  /** exit code, null while running */
  exit_code: number | null;
  /** share of one core over the last sampling window, percent, ≥ 0 */
  cpu_pct: number;
  /** resident memory in bytes, 0 after exit */
  mem_bytes: number;
}

export interface ProcessStdinResult {
  /** how many bytes were written */
  written_bytes: number;
}

// Inputs and answers

/** What `browsers.process.exec` takes: its path parameters, body fields, side by side. */
export interface ExecProcessInput {
  /** browser session id */
  id: string;
  /** program to run, a name on PATH or an absolute path */
  command: string;
  /**
   * its arguments, at most 4096
   * @default []
   */
  args?: string[] | undefined;
  /** absolute working directory, default the home directory */
  cwd?: string | undefined;
  /**
   * environment variables added to its own
   * @default {}
   */
  env?: { [key: string]: string } | undefined;
  /** seconds before it is killed, 1–86400, default none */
  timeout_sec?: number | undefined;
}

/** What `browsers.process.kill` takes: its path parameters, body fields, side by side. */
export interface KillProcessInput {
  /** browser session id */
  id: string;
  /** process id */
  process_id: string;
  /** TERM, KILL, INT or HUP, default TERM */
  signal?: ProcessSignal | undefined;
}

/** What `browsers.process.output` takes: its path parameters. */
export interface StreamProcessOutputInput {
  /** browser session id */
  id: string;
  /** process id */
  process_id: string;
}

/** What `browsers.process.resize` takes: its path parameters, body fields, side by side. */
export interface ResizeProcessInput {
  /** browser session id */
  id: string;
  /** process id */
  process_id: string;
  /** rows, 1–65535 */
  rows: number;
  /** columns, 1–65535 */
  cols: number;
}

/** What `browsers.process.spawn` takes: its path parameters, body fields, side by side. */
export interface SpawnProcessInput {
  /** browser session id */
  id: string;
  /** program to run, a name on PATH or an absolute path */
  command: string;
  /**
   * its arguments, at most 4096
   * @default []
   */
  args?: string[] | undefined;
  /** absolute working directory, default the home directory */
  cwd?: string | undefined;
  /**
   * environment variables added to its own
   * @default {}
   */
  env?: { [key: string]: string } | undefined;
  /** seconds before it is killed, 1–86400, default none */
  timeout_sec?: number | undefined;
  /**
   * run it on a terminal of its own (its output, stdout and stderr as one, reads as stdout)
   * @default false
   */
  allocate_tty?: boolean | undefined;
  /** the terminal's rows, 1–65535, default 24; only with allocate_tty */
  rows?: number | undefined;
  /** the terminal's cols, 1–65535, default 80; only with allocate_tty */
  cols?: number | undefined;
}

/** What `browsers.process.status` takes: its path parameters. */
export interface GetProcessStatusInput {
  /** browser session id */
  id: string;
  /** process id */
  process_id: string;
}

/** What `browsers.process.stdin` takes: its path parameters, body fields, side by side. */
export interface WriteProcessStdinInput {
  /** browser session id */
  id: string;
  /** process id */
  process_id: string;
  /** the bytes to write, base64 (at most 1048576) */
  data_b64: string;
}

// Functions

// browsers.process

/**
 * Run a command on the browser instance and wait for it.
 *
 * `POST /browsers/{id}/process/exec`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.process.exec`
 */
export const execProcess: (
  core: Core,
  input: ExecProcessInput,
  options?: CallOptions,
) => CallPromise<ExecResult> = /* @__PURE__ */ defineCall<ExecProcessInput, ExecResult>({
  name: 'browsers.process.exec',
  method: 'POST',
  path: '/browsers/{id}/process/exec',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
  serverTimeMs: execServerTimeMs,
});

/**
 * Send a signal to a process.
 *
 * `POST /browsers/{id}/process/{process_id}/kill`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.process.kill`
 */
export const killProcess: (
  core: Core,
  input: KillProcessInput,
  options?: CallOptions,
) => CallPromise<KillResult> = /* @__PURE__ */ defineCall<KillProcessInput, KillResult>({
  name: 'browsers.process.kill',
  method: 'POST',
  path: '/browsers/{id}/process/{process_id}/kill',
  body: 'json',
  bodyOptional: true,
  responses: { 200: 'json' },
  write: true,
});

/**
 * Stream the output of a process (SSE).
 *
 * `GET /browsers/{id}/process/{process_id}/stdout/stream`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.process.output`
 */
export const streamProcessOutput: (
  core: Core,
  input: StreamProcessOutputInput,
  options?: CallOptions,
) => CallPromise<EventStream<ProcessOutputEvent>> = /* @__PURE__ */ defineCall<
  StreamProcessOutputInput,
  EventStream<ProcessOutputEvent>
>(
  {
    name: 'browsers.process.output',
    method: 'GET',
    path: '/browsers/{id}/process/{process_id}/stdout/stream',
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

/**
 * Resize the terminal of a process.
 *
 * `POST /browsers/{id}/process/{process_id}/resize`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.process.resize`
 */
export const resizeProcess: (
  core: Core,
  input: ResizeProcessInput,
  options?: CallOptions,
) => CallPromise<KillResult> = /* @__PURE__ */ defineCall<ResizeProcessInput, KillResult>({
  name: 'browsers.process.resize',
  method: 'POST',
  path: '/browsers/{id}/process/{process_id}/resize',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Start a process on the browser instance.
 *
 * `POST /browsers/{id}/process/spawn`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.process.spawn`
 */
export const spawnProcess: (
  core: Core,
  input: SpawnProcessInput,
  options?: CallOptions,
) => CallPromise<SpawnedProcess> = /* @__PURE__ */ defineCall<SpawnProcessInput, SpawnedProcess>({
  name: 'browsers.process.spawn',
  method: 'POST',
  path: '/browsers/{id}/process/spawn',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Get the status of a process.
 *
 * `GET /browsers/{id}/process/{process_id}/status` (§4.6 of the interface): any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.process.status`
 */
export const getProcessStatus: (
  core: Core,
  input: GetProcessStatusInput,
  options?: CallOptions,
) => CallPromise<ProcessStatus> = /* @__PURE__ */ defineCall<GetProcessStatusInput, ProcessStatus>({
  name: 'browsers.process.status',
  method: 'GET',
  path: '/browsers/{id}/process/{process_id}/status',
  responses: { 200: 'json' },
});

/**
 * Write to the input of a process.
 *
 * `POST /browsers/{id}/process/{process_id}/stdin`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.process.stdin`
 */
export const writeProcessStdin: (
  core: Core,
  input: WriteProcessStdinInput,
  options?: CallOptions,
) => CallPromise<ProcessStdinResult> = /* @__PURE__ */ defineCall<
  WriteProcessStdinInput,
  ProcessStdinResult
>({
  name: 'browsers.process.stdin',
  method: 'POST',
  path: '/browsers/{id}/process/{process_id}/stdin',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});
