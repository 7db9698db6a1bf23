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
  pipe,
  string,
  url,
} from 'valibot';
import { TimestampSchema } from '../common/scalars.js';
import { ViewportSchema } from './viewport.js';

/** A URL with one of `schemes` that carries the `jwt` query parameter granting access to it. */
// @__NO_SIDE_EFFECTS__
function jwtUrlSchema(schemes: readonly string[]) {
  return pipe(
    string(),
    url('must be a URL'),
    check(
      (value) => {
        const parsed = new URL(value);
        return schemes.includes(parsed.protocol) && parsed.searchParams.has('jwt');
      },
      `must be a ${schemes.join(' or ')} URL carrying a jwt query parameter`,
    ),
  );
}

/** The profile a browser session uses. */
export const SessionProfileSchema = object({
  id: optional(string()),
  name: optional(string()),
  created_at: optional(TimestampSchema),
  updated_at: optional(TimestampSchema),
  last_used_at: optional(TimestampSchema),
});

/** A browser session: one real browser and the URLs that reach it. */
export const BrowserSessionSchema = object({
  session_id: string(),
  created_at: TimestampSchema,
  deleted_at: optional(TimestampSchema),
  cdp_ws_url: jwtUrlSchema(['ws:', 'wss:']),
  webdriver_ws_url: optional(jwtUrlSchema(['ws:', 'wss:'])),
  browser_live_view_url: optional(jwtUrlSchema(['http:', 'https:'])),
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
