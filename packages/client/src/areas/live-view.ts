/**
 * The `live-view` area: its records, each of its operations' input and answer as named types
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

// Records

export interface LiveView {
  /** the live view page, with a jwt for this session and mode */
  url: string;
  /** control (watch and drive) or read (watch only) */
  mode: 'control' | 'read';
  /** when the link stops working (ISO 8601 UTC); it also stops when the session ends */
  expires_at: string;
}

// Inputs and answers

/** What `browsers.liveView.create` takes: its path parameters, body fields, side by side. */
export interface CreateLiveViewInput {
  /** browser session id */
  id: string;
  /** control (watch and drive) or read (watch only), default control */
  mode?: 'control' | 'read' | undefined;
  /** seconds the link works, 1–86400, default 86400 */
  ttl_seconds?: number | undefined;
}

// Functions

// browsers.liveView

/**
 * Create a live view link to watch (read) or drive (control) the browser session.
 *
 * `POST /browsers/{id}/live_view`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.liveView.create`
 */
export const createLiveView: (
  core: Core,
  input: CreateLiveViewInput,
  options?: CallOptions,
) => CallPromise<LiveView> = /* @__PURE__ */ defineCall<CreateLiveViewInput, LiveView>({
  name: 'browsers.liveView.create',
  method: 'POST',
  path: '/browsers/{id}/live_view',
  body: 'json',
  bodyOptional: true,
  responses: { 201: 'json' },
  write: true,
});
