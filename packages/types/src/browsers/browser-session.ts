import {
  array,
  boolean,
  check,
  type InferOutput,
  integer,
  minValue,
  number,
  object,
  optional,
  picklist,
  pipe,
  string,
  url,
} from 'valibot';
import { pageQueryEntries } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { TimestampSchema } from '../common/scalars.js';
import { ViewportSchema } from './viewport.js';

/**
 * A URL with one of `schemes` that reaches the session. It carries the `jwt` query parameter
 * granting access, except in answers to a read-only token: those name the endpoint without the
 * key, so they drive nothing.
 */
// @__NO_SIDE_EFFECTS__
function sessionUrlSchema(schemes: readonly string[]) {
  return /* @__PURE__ */ pipe(
    /* @__PURE__ */ string(),
    /* @__PURE__ */ url('must be a URL'),
    /* @__PURE__ */ check(
      (value) => schemes.includes(new URL(value).protocol),
      `must be a ${schemes.join(' or ')} URL`,
    ),
  );
}

/** The profile a browser session loaded, and whether it saves its state back into it. */
export const SessionProfileSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  name: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  save_changes: /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
  created_at: /* @__PURE__ */ optional(TimestampSchema),
  updated_at: /* @__PURE__ */ optional(TimestampSchema),
  last_used_at: /* @__PURE__ */ optional(TimestampSchema),
});

/** A browser session: one real browser and the URLs that reach it. */
export const BrowserSessionSchema = /* @__PURE__ */ object({
  session_id: /* @__PURE__ */ string(),
  created_at: TimestampSchema,
  deleted_at: /* @__PURE__ */ optional(TimestampSchema),
  cdp_ws_url: /* @__PURE__ */ sessionUrlSchema(['ws:', 'wss:']),
  webdriver_ws_url: /* @__PURE__ */ optional(/* @__PURE__ */ sessionUrlSchema(['ws:', 'wss:'])),
  browser_live_view_url: /* @__PURE__ */ optional(
    /* @__PURE__ */ sessionUrlSchema(['http:', 'https:']),
  ),
  base_url: /* @__PURE__ */ optional(
    /* @__PURE__ */ pipe(/* @__PURE__ */ string(), /* @__PURE__ */ url('must be a URL')),
  ),
  headless: /* @__PURE__ */ boolean(),
  stealth: /* @__PURE__ */ boolean(),
  gpu: /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
  kiosk_mode: /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
  timeout_seconds: /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
  persistence: /* @__PURE__ */ optional(/* @__PURE__ */ object({ id: /* @__PURE__ */ string() })),
  profile: /* @__PURE__ */ optional(SessionProfileSchema),
  proxy_id: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  pool: /* @__PURE__ */ optional(
    /* @__PURE__ */ object({
      id: /* @__PURE__ */ string(),
      name: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    }),
  ),
  invocation_id: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  viewport: /* @__PURE__ */ optional(ViewportSchema),
  usage: /* @__PURE__ */ optional(
    /* @__PURE__ */ object({
      uptime_ms: /* @__PURE__ */ pipe(
        /* @__PURE__ */ number(),
        /* @__PURE__ */ integer(),
        /* @__PURE__ */ minValue(0),
      ),
    }),
  ),
});

/** A browser session. */
export type BrowserSession = InferOutput<typeof BrowserSessionSchema>;

/** The list of a GET /browsers call. */
export const BrowserSessionListSchema = /* @__PURE__ */ array(BrowserSessionSchema);

/** Which sessions GET /browsers lists: the running ones (default), the ended ones, or both. */
export const BROWSER_LIST_STATUSES = ['active', 'deleted', 'all'] as const;

/** Query of GET /browsers: a page, and `status` (active, deleted or all; default active). */
export const ListBrowsersQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  status: /* @__PURE__ */ optional(
    /* @__PURE__ */ picklist(BROWSER_LIST_STATUSES, 'must be active, deleted or all'),
    'active',
  ),
});

/** A GET /browsers query, defaults applied. */
export type BrowserListQuery = InferOutput<typeof ListBrowsersQuerySchema>;
