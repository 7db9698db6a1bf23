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
  return pipe(
    string(),
    url('must be a URL'),
    check(
      (value) => schemes.includes(new URL(value).protocol),
      `must be a ${schemes.join(' or ')} URL`,
    ),
  );
}

/** The profile a browser session loaded, and whether it saves its state back into it. */
export const SessionProfileSchema = object({
  id: optional(string()),
  name: optional(string()),
  save_changes: optional(boolean()),
  created_at: optional(TimestampSchema),
  updated_at: optional(TimestampSchema),
  last_used_at: optional(TimestampSchema),
});

/** A browser session: one real browser and the URLs that reach it. */
export const BrowserSessionSchema = object({
  session_id: string(),
  created_at: TimestampSchema,
  deleted_at: optional(TimestampSchema),
  cdp_ws_url: sessionUrlSchema(['ws:', 'wss:']),
  webdriver_ws_url: optional(sessionUrlSchema(['ws:', 'wss:'])),
  browser_live_view_url: optional(sessionUrlSchema(['http:', 'https:'])),
  base_url: optional(pipe(string(), url('must be a URL'))),
  headless: boolean(),
  stealth: boolean(),
  gpu: optional(boolean()),
  kiosk_mode: optional(boolean()),
  timeout_seconds: pipe(number(), integer()),
  persistence: optional(object({ id: string() })),
  profile: optional(SessionProfileSchema),
  proxy_id: optional(string()),
  pool: optional(object({ id: string(), name: optional(string()) })),
  invocation_id: optional(string()),
  viewport: optional(ViewportSchema),
  usage: optional(object({ uptime_ms: pipe(number(), integer(), minValue(0)) })),
});

/** A browser session. */
export type BrowserSession = InferOutput<typeof BrowserSessionSchema>;

/** The list of a GET /browsers call. */
export const BrowserSessionListSchema = array(BrowserSessionSchema);

/** Which sessions GET /browsers lists: the running ones (default), the ended ones, or both. */
export const BROWSER_LIST_STATUSES = ['active', 'deleted', 'all'] as const;

/** Query of GET /browsers: a page, and `status` (active, deleted or all; default active). */
export const ListBrowsersQuerySchema = requestObject({
  ...pageQueryEntries,
  status: optional(picklist(BROWSER_LIST_STATUSES, 'must be active, deleted or all'), 'active'),
});

/** A GET /browsers query, defaults applied. */
export type BrowserListQuery = InferOutput<typeof ListBrowsersQuerySchema>;
