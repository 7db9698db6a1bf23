/**
 * The `logs` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */

import { defineCall } from '../calls/define-call.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type { EventStream } from '../streams/event-stream.js';
import { readStreamBody } from '../streams/read-body.js';

// Records

export interface LogEvent {
  /** always log */
  event: 'log';
  /** when the line was written (service log) or read (a file), RFC 3339 */
  timestamp: string;
  /** the line, without its newline */
  message: string;
  /** true when the line was longer than 65536 bytes and only its start is sent */
  truncated?: boolean | undefined;
}

// Inputs and answers

/** What `browsers.logs.stream` takes: its path parameters, query parameters, side by side. */
export interface StreamLogsInput {
  /** browser session id */
  id: string;
  /** path: a file on the instance; supervisor: the session’s own service log */
  source: 'path' | 'supervisor';
  /** the file to stream, absolute (source=path) */
  path?: string | undefined;
  /** true (the default): start at the end and wait for more lines; false: every line there is, then the end */
  follow?: boolean | ('true' | 'false') | undefined;
  /** only this part of the service log (source=supervisor): browser or service; both when absent */
  supervisor_process?: 'browser' | 'service' | 'chromium' | undefined;
}

// Functions

// browsers.logs

/**
 * Stream the lines of a log (SSE).
 *
 * `GET /browsers/{id}/logs/stream`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.logs.stream`
 */
export const streamLogs: (
  core: Core,
  input: StreamLogsInput,
  options?: CallOptions,
) => CallPromise<EventStream<LogEvent>> = /* @__PURE__ */ defineCall<
  StreamLogsInput,
  EventStream<LogEvent>
>(
  {
    name: 'browsers.logs.stream',
    method: 'GET',
    path: '/browsers/{id}/logs/stream',
    query: ['source', 'path', 'follow', 'supervisor_process'],
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);
