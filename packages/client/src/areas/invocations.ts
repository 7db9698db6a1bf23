/**
 * The `invocations` area: its records, each of its operations' input and answer as named types
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
import type { EventStream } from '../streams/event-stream.js';
import { readStreamBody } from '../streams/read-body.js';
import type { BrowserSession } from './browsers.js';

// Records

export type InvocationStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface Invocation {
  /** the invocation's id */
  id: string;
  /** the action run */
  action_name: string;
  /** the app whose action it is */
  app_name: string;
  /** the app's version */
  version: string;
  /** queued, running, succeeded or failed */
  status: InvocationStatus;
  /** when it started (ISO 8601 UTC) */
  started_at: string;
  /** when it ended (ISO 8601 UTC) */
  finished_at?: string | undefined;
  /** the action's input, usually JSON text */
  payload?: string | undefined;
  /** the action's result, usually JSON text */
  output?: string | undefined;
  /** why it failed: the error the code threw, its time-out, a cancel */
  status_reason?: string | undefined;
}

export interface InvocationBrowsers {
  /** the invocation's active sessions, oldest first */
  browsers: BrowserSession[];
}

// Inputs and answers

/** What `invocations.create` takes: its body fields. */
export interface CreateInvocationInput {
  /** the action to run, 1–255 characters */
  action_name: string;
  /** the app whose action it is, 1–255 characters */
  app_name: string;
  /** the app's version, 1–255 characters, default latest */
  version?: string | undefined;
  /** the action's input as JSON text, ≤ 65536 characters */
  payload?: string | undefined;
  /** answer 202 queued at once and run in the background (default: wait up to 100 s for the result) */
  async?: boolean | undefined;
  /** how long an async invocation may run, 10–3600 s (default 900) */
  async_timeout_seconds?: number | undefined;
}

/** What `invocations.create` answers. */
export type CreateInvocationResult =
  | { status: 200; value: Invocation }
  | { status: 202; value: Invocation };

/** What `invocations.deleteBrowsers` takes: its path parameters. */
export interface DeleteInvocationBrowsersInput {
  /** invocation id */
  id: string;
}

/** What `invocations.events` takes: its path parameters. */
export interface FollowInvocationInput {
  /** invocation id */
  id: string;
}

/** What `invocations.events` answers. */
export type FollowInvocationResult = EventStream<
  | {
      /** a line of the code's console */
      event: 'log';
      /** when */
      timestamp: string;
      /** the line */
      message: string;
    }
  | {
      /** the invocation changed status */
      event: 'invocation_state';
      /** when */
      timestamp: string;
      /** the invocation as it is now */
      invocation: Invocation;
    }
  | {
      /** the stream cannot go on */
      event: 'error';
      /** when */
      timestamp: string;
      /** what went wrong */
      error: {
        /** an error code */
        code: string;
        /** what went wrong */
        message: string;
      };
    }
  | {
      /** nothing changed; the stream is alive */
      event: 'sse_heartbeat';
      /** when */
      timestamp: string;
    }
>;

/** What `invocations.get` takes: its path parameters. */
export interface GetInvocationInput {
  /** invocation id */
  id: string;
}

/** What `invocations.list` takes: its query parameters. */
export interface ListInvocationsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only invocations in this status */
  status?: InvocationStatus | undefined;
  /** only invocations of this app */
  app_name?: string | undefined;
  /** only invocations of this action */
  action_name?: string | undefined;
}

/** What `invocations.listBrowsers` takes: its path parameters. */
export interface ListInvocationBrowsersInput {
  /** invocation id */
  id: string;
}

/** What `invocations.update` takes: its path parameters, body fields, side by side. */
export interface UpdateInvocationInput {
  /** invocation id */
  id: string;
  /** how it ended: succeeded or failed */
  status: 'succeeded' | 'failed';
  /** the action's result, ≤ 65536 characters */
  output?: string | undefined;
}

// Functions

// invocations

/**
 * Invoke an app's action: wait for its result, or queue it (async).
 *
 * `POST /invocations`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `invocations.create`
 */
export const createInvocation: (
  core: Core,
  input: CreateInvocationInput,
  options?: CallOptions,
) => CallPromise<CreateInvocationResult> = /* @__PURE__ */ defineCall<
  CreateInvocationInput,
  CreateInvocationResult
>({
  name: 'invocations.create',
  method: 'POST',
  path: '/invocations',
  body: 'json',
  responses: { 200: 'json', 202: 'json' },
  write: true,
});

/**
 * Delete every running browser of an invocation.
 *
 * `DELETE /invocations/{id}/browsers`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `invocations.deleteBrowsers`
 */
export const deleteInvocationBrowsers: (
  core: Core,
  input: DeleteInvocationBrowsersInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteInvocationBrowsersInput, undefined>({
  name: 'invocations.deleteBrowsers',
  method: 'DELETE',
  path: '/invocations/{id}/browsers',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Follow an invocation: its code's console and its states, until it ends.
 *
 * `GET /invocations/{id}/events`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `invocations.events`
 */
export const followInvocation: (
  core: Core,
  input: FollowInvocationInput,
  options?: CallOptions,
) => CallPromise<FollowInvocationResult> = /* @__PURE__ */ defineCall<
  FollowInvocationInput,
  FollowInvocationResult
>(
  {
    name: 'invocations.events',
    method: 'GET',
    path: '/invocations/{id}/events',
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

/**
 * Get an invocation.
 *
 * `GET /invocations/{id}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `invocations.get`
 */
export const getInvocation: (
  core: Core,
  input: GetInvocationInput,
  options?: CallOptions,
) => CallPromise<Invocation> = /* @__PURE__ */ defineCall<GetInvocationInput, Invocation>({
  name: 'invocations.get',
  method: 'GET',
  path: '/invocations/{id}',
  responses: { 200: 'json' },
});

/**
 * List the invocations.
 *
 * `GET /invocations`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `invocations.list`
 */
export const listInvocations: (
  core: Core,
  input?: ListInvocationsInput,
  options?: CallOptions,
) => PagePromise<Invocation> = /* @__PURE__ */ defineListCall<ListInvocationsInput, Invocation>({
  name: 'invocations.list',
  method: 'GET',
  path: '/invocations',
  query: ['offset', 'limit', 'status', 'app_name', 'action_name'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * List the active browsers of an invocation.
 *
 * `GET /invocations/{id}/browsers` (§4.5 of the interface): any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `invocations.listBrowsers`
 */
export const listInvocationBrowsers: (
  core: Core,
  input: ListInvocationBrowsersInput,
  options?: CallOptions,
) => CallPromise<InvocationBrowsers> = /* @__PURE__ */ defineCall<
  ListInvocationBrowsersInput,
  InvocationBrowsers
>({
  name: 'invocations.listBrowsers',
  method: 'GET',
  path: '/invocations/{id}/browsers',
  responses: { 200: 'json' },
});

/**
 * End an invocation (succeeded, or failed to cancel it): its code stops, its browsers are deleted.
 *
 * `PATCH /invocations/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `invocations.update`
 */
export const updateInvocation: (
  core: Core,
  input: UpdateInvocationInput,
  options?: CallOptions,
) => CallPromise<Invocation> = /* @__PURE__ */ defineCall<UpdateInvocationInput, Invocation>({
  name: 'invocations.update',
  method: 'PATCH',
  path: '/invocations/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});
