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
  record,
  string,
  unknown,
  url,
} from 'valibot';
import { described } from '../common/describe.js';
import { pageQueryEntries } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { TimestampSchema } from '../common/scalars.js';
import { TelemetryConfigSchema } from '../telemetry/telemetry.js';
import { BrowserTagsSchema } from './browser-tags.js';
import { SessionNetworkSchema } from './session-network.js';
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
  id: /* @__PURE__ */ described(/* @__PURE__ */ optional(/* @__PURE__ */ string()), 'profile id'),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'profile name',
  ),
  save_changes: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether the session saves its state into the profile when it ends',
  ),
  created_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when the profile was made (ISO 8601 UTC)',
  ),
  updated_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when a session last saved into it (ISO 8601 UTC)',
  ),
  last_used_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when a browser last loaded it (ISO 8601 UTC)',
  ),
});

/**
 * Why a session ended: a delete call, its idle time-out, a pool release (or the pool's own
 * end or shrink), its invocation's end, the browser exiting by itself, the server stopping, a
 * server restart finding it left open, or the node that ran it lost (a cluster).
 */
export const BROWSER_END_REASONS = [
  'deleted',
  'timed_out',
  'released',
  'pool_changed',
  'invocation_ended',
  'crashed',
  'server_stopped',
  'server_restarted',
  'node_lost',
] as const;
export type BrowserEndReason = (typeof BROWSER_END_REASONS)[number];

/** A browser session: one real browser and the URLs that reach it. */
export const BrowserSessionSchema = /* @__PURE__ */ object({
  session_id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the session's id"),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "the session's name, unique among the project's running browsers",
  ),
  tags: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(BrowserTagsSchema),
    'key-value tags of the session, at most 50',
  ),
  created_at: /* @__PURE__ */ described(TimestampSchema, 'when the session started (ISO 8601 UTC)'),
  deleted_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when the session ended (ISO 8601 UTC); absent while it runs',
  ),
  end_reason: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ picklist(BROWSER_END_REASONS)),
    'why the session ended (deleted, timed_out, released, pool_changed, invocation_ended, crashed, server_stopped, server_restarted, node_lost); absent while it runs',
  ),
  cdp_ws_url: /* @__PURE__ */ described(
    /* @__PURE__ */ sessionUrlSchema(['ws:', 'wss:']),
    'DevTools WebSocket of the browser, with its jwt; absent key for read-only tokens',
  ),
  webdriver_ws_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ sessionUrlSchema(['ws:', 'wss:'])),
    'WebDriver BiDi WebSocket of the browser',
  ),
  browser_live_view_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ sessionUrlSchema(['http:', 'https:'])),
    'web page that shows the browser live and lets a person drive it (control link)',
  ),
  viewers: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ number(),
        /* @__PURE__ */ integer(),
        /* @__PURE__ */ minValue(0),
      ),
    ),
    'people watching its live view now; absent once it ended',
  ),
  base_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(/* @__PURE__ */ string(), /* @__PURE__ */ url('must be a URL')),
    ),
    "base URL of the session's own endpoints",
  ),
  headless: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean(),
    'whether the browser runs without a display',
  ),
  stealth: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean(),
    'whether the browser hides automation signals',
  ),
  gpu: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether the browser has a GPU (never, self-hosted)',
  ),
  start_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'the page it was asked to open when created (what was asked, not what loaded)',
  ),
  chrome_policy: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ record(/* @__PURE__ */ string(), /* @__PURE__ */ unknown()),
    ),
    'the Chrome enterprise policies it started with',
  ),
  kiosk_mode: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether the browser shows no browser UI',
  ),
  timeout_seconds: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    'idle time-out, in seconds: deleted after this long with no API call on it, no DevTools or BiDi client connected and nobody in its live view',
  ),
  persistence: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ object({
        id: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'id the session was kept under'),
      }),
    ),
    'persistence the session was created with',
  ),
  profile: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(SessionProfileSchema),
    'the profile the session loaded',
  ),
  proxy_id: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'the proxy the browser routes through',
  ),
  network: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(SessionNetworkSchema),
    'the private destinations its network may reach besides the public internet',
  ),
  pool: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ object({
        id: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'pool id'),
        name: /* @__PURE__ */ described(
          /* @__PURE__ */ optional(/* @__PURE__ */ string()),
          'pool name',
        ),
      }),
    ),
    'the pool the browser belongs to',
  ),
  invocation_id: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'the invocation the session belongs to',
  ),
  viewport: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(ViewportSchema),
    "the browser's window size",
  ),
  telemetry: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TelemetryConfigSchema),
    'what its telemetry captures; absent when it captures nothing',
  ),
  usage: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ object({
        uptime_ms: /* @__PURE__ */ described(
          /* @__PURE__ */ pipe(
            /* @__PURE__ */ number(),
            /* @__PURE__ */ integer(),
            /* @__PURE__ */ minValue(0),
          ),
          'how long it ran, in milliseconds, ≥ 0',
        ),
      }),
    ),
    'what the session used',
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
  status: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(BROWSER_LIST_STATUSES, 'must be active, deleted or all'),
      'active',
    ),
    'which sessions: active (running), deleted (ended) or all, default active',
  ),
});

/** A GET /browsers query, defaults applied. */
export type BrowserListQuery = InferOutput<typeof ListBrowsersQuerySchema>;
