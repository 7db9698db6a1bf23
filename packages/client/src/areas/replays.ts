/**
 * The `replays` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */

import { defineCall } from '../calls/define-call.js';
import type { PagePromise } from '../calls/list-page.js';
import { defineListCall } from '../calls/list-page.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type { BinaryBody } from '../streams/binary-body.js';
import { readStreamBody } from '../streams/read-body.js';

// Records

export interface Replay {
  /** the replay's id */
  replay_id: string;
  /** when recording started (ISO 8601 UTC) */
  started_at: string;
  /** when recording stopped (ISO 8601 UTC); absent while recording */
  finished_at?: string | undefined;
  /** web page that plays the video */
  replay_view_url?: string | undefined;
}

// Inputs and answers

/** What `browsers.replays.download` takes: its path parameters. */
export interface DownloadReplayInput {
  /** browser session id */
  id: string;
  /** replay id */
  replay_id: string;
}

/** What `browsers.replays.download` answers. */
export type DownloadReplayResult =
  | { status: 200; value: BinaryBody }
  | { status: 202; value: Replay };

/** What `browsers.replays.list` takes: its path parameters, query parameters, side by side. */
export interface ListReplaysInput {
  /** browser session id */
  id: string;
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
}

/** What `browsers.replays.start` takes: its path parameters, body fields, side by side. */
export interface StartReplayInput {
  /** browser session id */
  id: string;
  /** frames per second, 1–30, default 10 */
  framerate?: number | undefined;
  /** seconds after which it stops by itself, 1–14400, default 14400 */
  max_duration_in_seconds?: number | undefined;
}

/** What `browsers.replays.stop` takes: its path parameters. */
export interface StopReplayInput {
  /** browser session id */
  id: string;
  /** replay id */
  replay_id: string;
}

// Functions

// browsers.replays

/**
 * Download a replay video (MP4).
 *
 * `GET /browsers/{id}/replays/{replay_id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.replays.download`
 */
export const downloadReplay: (
  core: Core,
  input: DownloadReplayInput,
  options?: CallOptions,
) => CallPromise<DownloadReplayResult> = /* @__PURE__ */ defineCall<
  DownloadReplayInput,
  DownloadReplayResult
>(
  {
    name: 'browsers.replays.download',
    method: 'GET',
    path: '/browsers/{id}/replays/{replay_id}',
    responses: { 200: 'binary', 202: 'json' },
  },
  { readBody: readStreamBody },
);

/**
 * List the replays of a browser session.
 *
 * `GET /browsers/{id}/replays`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.replays.list`
 */
export const listReplays: (
  core: Core,
  input: ListReplaysInput,
  options?: CallOptions,
) => PagePromise<Replay> = /* @__PURE__ */ defineListCall<ListReplaysInput, Replay>({
  name: 'browsers.replays.list',
  method: 'GET',
  path: '/browsers/{id}/replays',
  query: ['offset', 'limit'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Start recording a replay of the browser session.
 *
 * `POST /browsers/{id}/replays`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.replays.start`
 */
export const startReplay: (
  core: Core,
  input: StartReplayInput,
  options?: CallOptions,
) => CallPromise<Replay> = /* @__PURE__ */ defineCall<StartReplayInput, Replay>({
  name: 'browsers.replays.start',
  method: 'POST',
  path: '/browsers/{id}/replays',
  body: 'json',
  bodyOptional: true,
  responses: { 201: 'json' },
  write: true,
});

/**
 * Stop a replay recording and persist the video.
 *
 * `POST /browsers/{id}/replays/{replay_id}/stop` (§4.1 of the interface): a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
 * `browsers.replays.stop`
 */
export const stopReplay: (
  core: Core,
  input: StopReplayInput,
  options?: CallOptions,
) => CallPromise<Replay> = /* @__PURE__ */ defineCall<StopReplayInput, Replay>({
  name: 'browsers.replays.stop',
  method: 'POST',
  path: '/browsers/{id}/replays/{replay_id}/stop',
  responses: { 200: 'json' },
  write: true,
});
