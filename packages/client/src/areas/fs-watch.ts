/**
 * The `fs-watch` area: its records, each of its operations' input and answer as named types
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

export type WatchChangeType = 'CREATE' | 'WRITE' | 'DELETE' | 'RENAME';

export type WatchEvent =
  | {
      /** CREATE, WRITE, DELETE or RENAME */
      type: WatchChangeType;
      /** absolute path of what changed */
      path: string;
      /** its name */
      name?: string | undefined;
      /** whether it is a directory */
      is_dir?: boolean | undefined;
    }
  | {
      /** events were lost: the reader was too slow */
      type: 'OVERFLOW';
      /** how many events were lost, ≥ 1 */
      lost: number;
    };

export interface Watch {
  /** the watch's id */
  watch_id: string;
}

// Inputs and answers

/** What `browsers.fs.watch.events` takes: its path parameters. */
export interface WatchEventsInput {
  /** browser session id */
  id: string;
  /** watch id */
  watch_id: string;
}

/** What `browsers.fs.watch.start` takes: its path parameters, body fields, side by side. */
export interface StartWatchInput {
  /** browser session id */
  id: string;
  /** absolute path of the directory to watch */
  path: string;
  /** watch subdirectories too, default false */
  recursive?: boolean | undefined;
}

/** What `browsers.fs.watch.stop` takes: its path parameters. */
export interface StopWatchInput {
  /** browser session id */
  id: string;
  /** watch id */
  watch_id: string;
}

// Functions

// browsers.fs.watch

/**
 * Stream the events of a directory watch (SSE).
 *
 * `GET /browsers/{id}/fs/watch/{watch_id}/events`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.fs.watch.events`
 */
export const watchEvents: (
  core: Core,
  input: WatchEventsInput,
  options?: CallOptions,
) => CallPromise<EventStream<WatchEvent>> = /* @__PURE__ */ defineCall<
  WatchEventsInput,
  EventStream<WatchEvent>
>(
  {
    name: 'browsers.fs.watch.events',
    method: 'GET',
    path: '/browsers/{id}/fs/watch/{watch_id}/events',
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

/**
 * Start watching a directory on the browser instance.
 *
 * `POST /browsers/{id}/fs/watch`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.fs.watch.start`
 */
export const startWatch: (
  core: Core,
  input: StartWatchInput,
  options?: CallOptions,
) => CallPromise<Watch> = /* @__PURE__ */ defineCall<StartWatchInput, Watch>({
  name: 'browsers.fs.watch.start',
  method: 'POST',
  path: '/browsers/{id}/fs/watch',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * Stop watching a directory.
 *
 * `DELETE /browsers/{id}/fs/watch/{watch_id}` (§4.7 of the interface): a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.fs.watch.stop`
 */
export const stopWatch: (
  core: Core,
  input: StopWatchInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<StopWatchInput, undefined>({
  name: 'browsers.fs.watch.stop',
  method: 'DELETE',
  path: '/browsers/{id}/fs/watch/{watch_id}',
  responses: { 204: 'none' },
  write: true,
});
