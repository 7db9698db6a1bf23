/**
 * The `browser-pools` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */
import { acquireServerTimeMs } from '@x/types';
import { defineCall } from '../calls/define-call.js';
import type { PagePromise } from '../calls/list-page.js';
import { defineListCall } from '../calls/list-page.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type {
  BrowserSession,
  NetworkInput,
  SessionNetwork,
  Viewport,
  ViewportInput,
} from './browsers.js';
import type { TelemetryConfig } from './telemetry.js';

// Records

export interface PoolProfileReferenceInput {
  /** profile id */
  id?: string | undefined;
  /** profile name */
  name?: string | undefined;
  /** save the browser's state into the profile when it ends, default false */
  save_changes?: boolean | undefined;
}

export interface BrowserPoolConfig {
  /** browsers the pool keeps warm, 1–500 */
  size: number;
  /** the pool's name */
  name?: string | undefined;
  /** percent of the size started per minute while filling, 1–100 */
  fill_rate_per_minute?: number | undefined;
  /** idle time-out of the pool's acquired browsers, in seconds */
  timeout_seconds?: number | undefined;
  /** whether its browsers hide automation signals */
  stealth?: boolean | undefined;
  /** whether its browsers run without a display */
  headless?: boolean | undefined;
  /** the profile its browsers load, read-only */
  profile?:
    | {
        /** profile id */
        id?: string | undefined;
        /** profile name */
        name?: string | undefined;
        /** always false for a pool */
        save_changes?: boolean | undefined;
      }
    | undefined;
  /** extensions its browsers load, by id or name */
  extensions?:
    | {
        /** extension id */
        id?: string | undefined;
        /** extension name */
        name?: string | undefined;
      }[]
    | undefined;
  /** proxy its browsers route through */
  proxy_id?: string | undefined;
  /** private destinations its browsers may reach */
  network?: SessionNetwork | undefined;
  /** its browsers' window size */
  viewport?: Viewport | undefined;
  /** whether its browsers show no browser UI */
  kiosk_mode?: boolean | undefined;
  /** Chromium enterprise policies its browsers start with, as JSON */
  chrome_policy?: Record<string, unknown> | undefined;
  /** what its browsers’ telemetry captures */
  telemetry?: TelemetryConfig | undefined;
}

export interface BrowserPool {
  /** the pool's id */
  id: string;
  /** the pool's unique name */
  name?: string | undefined;
  /** warm browsers ready to acquire, ≥ 0 */
  available_count: number;
  /** browsers handed out and not released, ≥ 0 */
  acquired_count: number;
  /** when the pool was made (ISO 8601 UTC) */
  created_at: string;
  /** the pool's configuration */
  browser_pool_config: BrowserPoolConfig;
}

// Inputs and answers

/** What `browserPools.acquire` takes: its path parameters, body fields, side by side. */
export interface AcquireBrowserInput {
  /** pool id or name */
  id_or_name: string;
  /** seconds to wait for a browser to come free, 0–300, default 30 */
  acquire_timeout_seconds?: number | undefined;
}

/** What `browserPools.acquire` answers. */
export type AcquireBrowserResult =
  | { status: 200; value: BrowserSession }
  | { status: 204; value: undefined };

/** What `browserPools.create` takes: its body fields. */
export interface CreateBrowserPoolInput {
  /** unique name of the pool, [A-Za-z0-9._-], 1–255 characters */
  name?: string | undefined;
  /** browsers kept warm, 1–500 */
  size: number;
  /** percent of the size started per minute while filling, 1–100, default 10 */
  fill_rate_per_minute?: number | undefined;
  /** idle time-out of an acquired browser, seconds, 10–259200, default 600 */
  timeout_seconds?: number | undefined;
  /** hide the signs of an automated headless browser (webdriver flag, headless user agent and client hints, screen size), default false */
  stealth?: boolean | undefined;
  /** run without a display, default true */
  headless?: boolean | undefined;
  /** profile the browsers load read-only, by id or name */
  profile?: PoolProfileReferenceInput | undefined;
  /** extensions the browsers load, by id or name, at most 20 */
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
  /** proxy the browsers route through */
  proxy_id?: string | undefined;
  /** private destinations the browsers may reach, a subset of what the operator allows */
  network?: NetworkInput | undefined;
  /** window size, width 320–7680 and height 200–4320 pixels */
  viewport?: ViewportInput | undefined;
  /** show no browser UI, default false */
  kiosk_mode?: boolean | undefined;
  /** Chromium enterprise policies, as a JSON object */
  chrome_policy?: Record<string, unknown> | undefined;
  /** what the telemetry of its browsers captures ({} for the operational categories); null: nothing */
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

/** What `browserPools.delete` takes: its path parameters, query parameters, side by side. */
export interface DeleteBrowserPoolInput {
  /** pool id or name */
  id_or_name: string;
  /** delete even while browsers are acquired (they end), default false */
  force?: boolean | ('true' | 'false') | undefined;
}

/** What `browserPools.flush` takes: its path parameters. */
export interface FlushBrowserPoolInput {
  /** pool id or name */
  id_or_name: string;
}

/** What `browserPools.get` takes: its path parameters. */
export interface GetBrowserPoolInput {
  /** pool id or name */
  id_or_name: string;
}

/** What `browserPools.list` takes: its query parameters. */
export interface ListBrowserPoolsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only the record with exactly this name */
  name?: string | undefined;
  /** only records whose id or name contains this, any case, ≤ 255 characters */
  query?: string | undefined;
}

/** What `browserPools.release` takes: its path parameters, body fields, side by side. */
export interface ReleaseBrowserInput {
  /** pool id or name */
  id_or_name: string;
  /** the acquired browser to hand back */
  session_id: string;
  /** start its replacement at once, default true */
  reuse?: boolean | undefined;
}

/** What `browserPools.update` takes: its path parameters, body fields, side by side. */
export interface UpdateBrowserPoolInput {
  /** pool id or name */
  id_or_name: string;
  /** unique name of the pool, [A-Za-z0-9._-], 1–255 characters */
  name?: string | undefined;
  /** browsers kept warm, 1–500 */
  size?: number | undefined;
  /** percent of the size started per minute while filling, 1–100, default 10 */
  fill_rate_per_minute?: number | undefined;
  /** idle time-out of an acquired browser, seconds, 10–259200, default 600 */
  timeout_seconds?: number | undefined;
  /** hide the signs of an automated headless browser (webdriver flag, headless user agent and client hints, screen size), default false */
  stealth?: boolean | undefined;
  /** run without a display, default true */
  headless?: boolean | undefined;
  /** profile the browsers load read-only, by id or name */
  profile?: PoolProfileReferenceInput | undefined;
  /** extensions the browsers load, by id or name, at most 20 */
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
  /** proxy the browsers route through */
  proxy_id?: string | undefined;
  /** private destinations the browsers may reach, a subset of what the operator allows */
  network?: NetworkInput | undefined;
  /** window size, width 320–7680 and height 200–4320 pixels */
  viewport?: ViewportInput | undefined;
  /** show no browser UI, default false */
  kiosk_mode?: boolean | undefined;
  /** Chromium enterprise policies, as a JSON object */
  chrome_policy?: Record<string, unknown> | undefined;
  /** what the telemetry of its browsers captures ({} for the operational categories); null: nothing */
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

// Functions

// browserPools

/**
 * Acquire a browser from a pool, waiting up to acquire_timeout_seconds.
 *
 * `POST /browser_pools/{id_or_name}/acquire`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browserPools.acquire`
 */
export const acquireBrowser: (
  core: Core,
  input: AcquireBrowserInput,
  options?: CallOptions,
) => CallPromise<AcquireBrowserResult> = /* @__PURE__ */ defineCall<
  AcquireBrowserInput,
  AcquireBrowserResult
>({
  name: 'browserPools.acquire',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/acquire',
  body: 'json',
  bodyOptional: true,
  responses: { 200: 'json', 204: 'none' },
  write: true,
  serverTimeMs: acquireServerTimeMs,
});

/**
 * Create a browser pool.
 *
 * `POST /browser_pools`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browserPools.create`
 */
export const createBrowserPool: (
  core: Core,
  input: CreateBrowserPoolInput,
  options?: CallOptions,
) => CallPromise<BrowserPool> = /* @__PURE__ */ defineCall<CreateBrowserPoolInput, BrowserPool>({
  name: 'browserPools.create',
  method: 'POST',
  path: '/browser_pools',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * Delete a browser pool.
 *
 * `DELETE /browser_pools/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `browserPools.delete`
 */
export const deleteBrowserPool: (
  core: Core,
  input: DeleteBrowserPoolInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteBrowserPoolInput, undefined>({
  name: 'browserPools.delete',
  method: 'DELETE',
  path: '/browser_pools/{id_or_name}',
  query: ['force'],
  responses: { 204: 'none' },
  write: true,
});

/**
 * Discard the idle browsers of a pool so fresh ones replace them.
 *
 * `POST /browser_pools/{id_or_name}/flush`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
 * `browserPools.flush`
 */
export const flushBrowserPool: (
  core: Core,
  input: FlushBrowserPoolInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<FlushBrowserPoolInput, undefined>({
  name: 'browserPools.flush',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/flush',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Get a browser pool by id or name.
 *
 * `GET /browser_pools/{id_or_name}` (§4.3 of the interface): any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browserPools.get`
 */
export const getBrowserPool: (
  core: Core,
  input: GetBrowserPoolInput,
  options?: CallOptions,
) => CallPromise<BrowserPool> = /* @__PURE__ */ defineCall<GetBrowserPoolInput, BrowserPool>({
  name: 'browserPools.get',
  method: 'GET',
  path: '/browser_pools/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * List the browser pools.
 *
 * `GET /browser_pools`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `browserPools.list`
 */
export const listBrowserPools: (
  core: Core,
  input?: ListBrowserPoolsInput,
  options?: CallOptions,
) => PagePromise<BrowserPool> = /* @__PURE__ */ defineListCall<ListBrowserPoolsInput, BrowserPool>({
  name: 'browserPools.list',
  method: 'GET',
  path: '/browser_pools',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Release an acquired browser back to its pool.
 *
 * `POST /browser_pools/{id_or_name}/release`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browserPools.release`
 */
export const releaseBrowser: (
  core: Core,
  input: ReleaseBrowserInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<ReleaseBrowserInput, undefined>({
  name: 'browserPools.release',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/release',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Update a browser pool.
 *
 * `PATCH /browser_pools/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `browserPools.update`
 */
export const updateBrowserPool: (
  core: Core,
  input: UpdateBrowserPoolInput,
  options?: CallOptions,
) => CallPromise<BrowserPool> = /* @__PURE__ */ defineCall<UpdateBrowserPoolInput, BrowserPool>({
  name: 'browserPools.update',
  method: 'PATCH',
  path: '/browser_pools/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});
