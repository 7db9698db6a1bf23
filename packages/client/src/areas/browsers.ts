/**
 * The `browsers` area: its records, each of its operations' input and answer as named types
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
import type { TelemetryConfig } from './telemetry.js';

// Records

export interface SessionProfile {
  /** profile id */
  id?: string | undefined;
  /** profile name */
  name?: string | undefined;
  /** whether the session saves its state into the profile when it ends */
  save_changes?: boolean | undefined;
  /** when the profile was made (ISO 8601 UTC) */
  created_at?: string | undefined;
  /** when a session last saved into it (ISO 8601 UTC) */
  updated_at?: string | undefined;
  /** when a browser last loaded it (ISO 8601 UTC) */
  last_used_at?: string | undefined;
}

export interface SessionNetwork {
  /** networks (a.b.c.d/n) and address:port entries opened for it */
  allow: string[];
}

export interface Viewport {
  /** width in CSS pixels */
  width: number;
  /** height in CSS pixels */
  height: number;
  /** refresh rate in Hz */
  refresh_rate?: number | undefined;
}

export interface BrowserSession {
  /** the session's id */
  session_id: string;
  /** the session's name, unique among the project's running browsers */
  name?: string | undefined;
  /** key-value tags of the session, at most 50 */
  tags?: { [key: string]: string } | undefined;
  /** when the session started (ISO 8601 UTC) */
  created_at: string;
  /** when the session ended (ISO 8601 UTC); absent while it runs */
  deleted_at?: string | undefined;
  /** why the session ended (deleted, timed_out, released, pool_changed, invocation_ended, crashed, server_stopped, server_restarted, node_lost); absent while it runs */
  end_reason?:
    | 'deleted'
    | 'timed_out'
    | 'released'
    | 'pool_changed'
    | 'invocation_ended'
    | 'crashed'
    | 'server_stopped'
    | 'server_restarted'
    | 'node_lost'
    | undefined;
  /** DevTools WebSocket of the browser, with its jwt; absent key for read-only tokens */
  cdp_ws_url: string;
  /** WebDriver BiDi WebSocket of the browser */
  webdriver_ws_url?: string | undefined;
  /** web page that shows the browser live and lets a person drive it (control link) */
  browser_live_view_url?: string | undefined;
  /** people watching its live view now; absent once it ended */
  viewers?: number | undefined;
  /** base URL of the session's own endpoints */
  base_url?: string | undefined;
  /** whether the browser runs without a display */
  headless: boolean;
  /** whether the browser hides automation signals */
  stealth: boolean;
  /** whether the browser has a GPU (never, self-hosted) */
  gpu?: boolean | undefined;
  /** the page it was asked to open when created (what was asked, not what loaded) */
  start_url?: string | undefined;
  /** the Chrome enterprise policies it started with */
  chrome_policy?: { [key: string]: unknown } | undefined;
  /** whether the browser shows no browser UI */
  kiosk_mode?: boolean | undefined;
  /** idle time-out, in seconds: deleted after this long with no API call on it, no DevTools or BiDi client connected and nobody in its live view */
  timeout_seconds: number;
  /** persistence the session was created with */
  persistence?:
    | {
        /** id the session was kept under */
        id: string;
      }
    | undefined;
  /** the profile the session loaded */
  profile?: SessionProfile | undefined;
  /** the proxy the browser routes through */
  proxy_id?: string | undefined;
  /** the private destinations its network may reach besides the public internet */
  network?: SessionNetwork | undefined;
  /** the pool the browser belongs to */
  pool?:
    | {
        /** pool id */
        id: string;
        /** pool name */
        name?: string | undefined;
      }
    | undefined;
  /** the invocation the session belongs to */
  invocation_id?: string | undefined;
  /** the browser's window size */
  viewport?: Viewport | undefined;
  /** what its telemetry captures; absent when it captures nothing */
  telemetry?: TelemetryConfig | undefined;
  /** what the session used */
  usage?:
    | {
        /** how long it ran, in milliseconds, ≥ 0 */
        uptime_ms: number;
      }
    | undefined;
}

export interface NetworkInput {
  /** private networks and host:port the browser may reach, each within what the operator allows */
  allow: string[];
}

export interface ViewportInput {
  /** width in CSS pixels, 320–7680 */
  width: number;
  /** height in CSS pixels, 240–4320 */
  height: number;
  /** refresh rate in Hz */
  refresh_rate?: number | undefined;
}

export interface ProfileReferenceInput {
  /** profile id */
  id?: string | undefined;
  /** profile name */
  name?: string | undefined;
  /** save the browser's state into the profile when it ends, default false */
  save_changes?: boolean | undefined;
}

export interface ViewportUpdateInput {
  /** width in CSS pixels, 320–7680 */
  width: number;
  /** height in CSS pixels, 240–4320 */
  height: number;
  /** refresh rate in Hz */
  refresh_rate?: number | undefined;
  /** apply it while the browser is recorded: each recording ends and a new one starts at the new size; default false (409 instead) */
  force?: boolean | undefined;
}

// Inputs and answers

/** What `browsers.create` takes: its body fields. */
export interface CreateBrowserInput {
  /** a name to find it by, unique among the running browsers of the project */
  name?: string | undefined;
  /** key-value tags, at most 50 (keys 1–64, values ≤ 256 characters) */
  tags?: { [key: string]: string } | undefined;
  /** run without a display, default true */
  headless?: boolean | undefined;
  /** hide the signs of an automated headless browser (webdriver flag, headless user agent and client hints, screen size), default false */
  stealth?: boolean | undefined;
  /** show no browser UI, default false */
  kiosk_mode?: boolean | undefined;
  /** GPU acceleration: true is refused where the server renders without a GPU (every self-hosted server today) */
  gpu?: boolean | undefined;
  /** an http(s) page its first tab opens once it runs, without waiting for it to load (a page that fails to load does not fail the create) */
  start_url?: string | undefined;
  /** Chrome enterprise policies it starts with, by name; those the service sets itself (extensions, proxy, DevTools, headless mode, its folders) are refused */
  chrome_policy?: { [key: string]: unknown } | undefined;
  /** idle time-out, seconds, 10–259200, default 60: deleted after this long with no API call on it, no DevTools or BiDi client connected and nobody in its live view */
  timeout_seconds?: number | undefined;
  /** window size, width 320–7680 and height 200–4320 pixels, default 1920×1080 */
  viewport?: ViewportInput | undefined;
  /** extensions to load, by id or name, at most 20 */
  extensions?:
    | (
        | {
            /** extension id */
            id: string;
          }
        | {
            /** extension name */
            name: string;
          }
      )[]
    | undefined;
  /** the running invocation the session belongs to */
  invocation_id?: string | undefined;
  /** proxy to route every request through */
  proxy_id?: string | undefined;
  /** profile to load, by id or name (save_changes to save into it) */
  profile?: ProfileReferenceInput | undefined;
  /** private destinations it may reach, a subset of what the operator allows; none by default */
  network?: NetworkInput | undefined;
  /** what its telemetry captures: {} for the operational categories, browser.<category>.enabled for more; none by default */
  telemetry?:
    | {
        /** false: capture nothing; true or absent: the operational categories and those turned on */
        enabled?: boolean | undefined;
        /** categories turned on or off over the defaults */
        browser?:
          | {
              /** calls of the API on the browser; on by default */
              control?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** DevTools clients and live view viewers arriving and leaving; on by default */
              connection?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** health of the browser; on by default */
              system?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** captcha solving; on by default */
              captcha?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** console messages and uncaught exceptions of the pages; off by default */
              console?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** requests, responses and failed loads of the pages; off by default */
              network?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** navigations, DOMContentLoaded, load and new tabs; off by default */
              page?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** clicks and keys; off by default */
              interaction?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** periodic screenshots; off by default */
              screenshot?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
            }
          | undefined;
      }
    | null
    | undefined;
}

/** What `browsers.delete` takes: its path parameters. */
export interface DeleteBrowserInput {
  /** browser session id, or the name of a running browser */
  id: string;
}

/** What `browsers.get` takes: its path parameters. */
export interface GetBrowserInput {
  /** browser session id, or the name of a running browser */
  id: string;
}

/** What `browsers.list` takes: its query parameters. */
export interface ListBrowsersInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** which sessions: active (running), deleted (ended) or all, default active */
  status?: 'active' | 'deleted' | 'all' | undefined;
}

/** What `browsers.update` takes: its path parameters, body fields, side by side. */
export interface UpdateBrowserInput {
  /** browser session id, or the name of a running browser */
  id: string;
  /** new name, unique among the running browsers of the project; "" clears it */
  name?: string | '' | null | undefined;
  /** the whole new set of tags (replaces every tag; {} clears them), at most 50 */
  tags?: { [key: string]: string } | null | undefined;
  /** new window size, applied to the running browser (409 while it is recorded, unless force) */
  viewport?: ViewportUpdateInput | undefined;
  /** proxy its new connections go through; "" sends them direct */
  proxy_id?: string | '' | null | undefined;
  /** new idle time-out, seconds, 10–259200 */
  timeout_seconds?: number | undefined;
}

// Functions

// browsers

/**
 * Create a browser session.
 *
 * `POST /browsers`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.create`
 */
export const createBrowser: (
  core: Core,
  input?: CreateBrowserInput,
  options?: CallOptions,
) => CallPromise<BrowserSession> = /* @__PURE__ */ defineCall<CreateBrowserInput, BrowserSession>({
  name: 'browsers.create',
  method: 'POST',
  path: '/browsers',
  body: 'json',
  bodyOptional: true,
  responses: { 201: 'json' },
  write: true,
});

/**
 * Delete a browser session.
 *
 * `DELETE /browsers/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.delete`
 */
export const deleteBrowser: (
  core: Core,
  input: DeleteBrowserInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteBrowserInput, undefined>({
  name: 'browsers.delete',
  method: 'DELETE',
  path: '/browsers/{id}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Get a browser session.
 *
 * `GET /browsers/{id}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.get`
 */
export const getBrowser: (
  core: Core,
  input: GetBrowserInput,
  options?: CallOptions,
) => CallPromise<BrowserSession> = /* @__PURE__ */ defineCall<GetBrowserInput, BrowserSession>({
  name: 'browsers.get',
  method: 'GET',
  path: '/browsers/{id}',
  responses: { 200: 'json' },
});

/**
 * List the browser sessions (the active ones unless status says otherwise).
 *
 * `GET /browsers`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `browsers.list`
 */
export const listBrowsers: (
  core: Core,
  input?: ListBrowsersInput,
  options?: CallOptions,
) => PagePromise<BrowserSession> = /* @__PURE__ */ defineListCall<
  ListBrowsersInput,
  BrowserSession
>({
  name: 'browsers.list',
  method: 'GET',
  path: '/browsers',
  query: ['offset', 'limit', 'status'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Update a running browser session (name, tags, viewport, proxy, time-out).
 *
 * `PATCH /browsers/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `browsers.update`
 */
export const updateBrowser: (
  core: Core,
  input: UpdateBrowserInput,
  options?: CallOptions,
) => CallPromise<BrowserSession> = /* @__PURE__ */ defineCall<UpdateBrowserInput, BrowserSession>({
  name: 'browsers.update',
  method: 'PATCH',
  path: '/browsers/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});
