import {
  array,
  boolean,
  check,
  type InferInput,
  type InferOutput,
  integer,
  minValue,
  nullable,
  number,
  object,
  optional,
  picklist,
  pipe,
  record,
  string,
  unknown,
} from 'valibot';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';

/**
 * The categories a session's telemetry may capture. The operational ones (`control`,
 * `connection`, `system`, `captcha`) are on whenever telemetry is; the others are asked for one
 * by one.
 */
export const TELEMETRY_CATEGORIES = [
  'control',
  'connection',
  'system',
  'captcha',
  'console',
  'network',
  'page',
  'interaction',
  'screenshot',
] as const;

/** A category a session's telemetry may capture. */
export type TelemetryCategory = (typeof TELEMETRY_CATEGORIES)[number];

/** The categories on whenever telemetry is, unless turned off one by one. */
export const DEFAULT_TELEMETRY_CATEGORIES: readonly TelemetryCategory[] = [
  'control',
  'connection',
  'system',
  'captcha',
];

/**
 * The categories an event may have: the configurable ones, and `monitor` (the capture of the
 * page's own events itself), which comes with any of console, network and page.
 */
export const TELEMETRY_EVENT_CATEGORIES = [
  'control',
  'connection',
  'system',
  'captcha',
  'console',
  'network',
  'page',
  'interaction',
  'screenshot',
  'monitor',
] as const;

/** A category a telemetry event may have. */
export type TelemetryEventCategory = (typeof TELEMETRY_EVENT_CATEGORIES)[number];

/** Events a session keeps: the newest this many; older ones are dropped (a gap in `seq`). */
export const TELEMETRY_RETAINED_EVENTS = 1024;

/** Most bytes an event's `data` takes as JSON: longer texts are cut, and `truncated` set. */
export const MAX_TELEMETRY_EVENT_BYTES = 8192;

const categoryConfig = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    enabled: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be true or false')),
      'capture this category',
    ),
  }),
);

/** The categories a telemetry configuration names, each `{enabled}`. */
const TelemetryCategoriesInputSchema = /* @__PURE__ */ requestObject({
  control: /* @__PURE__ */ described(
    categoryConfig,
    'calls of the API on the browser; on by default',
  ),
  connection: /* @__PURE__ */ described(
    categoryConfig,
    'DevTools clients and live view viewers arriving and leaving; on by default',
  ),
  system: /* @__PURE__ */ described(categoryConfig, 'health of the browser; on by default'),
  captcha: /* @__PURE__ */ described(categoryConfig, 'captcha solving; on by default'),
  console: /* @__PURE__ */ described(
    categoryConfig,
    'console messages and uncaught exceptions of the pages; off by default',
  ),
  network: /* @__PURE__ */ described(
    categoryConfig,
    'requests, responses and failed loads of the pages; off by default',
  ),
  page: /* @__PURE__ */ described(
    categoryConfig,
    'navigations, DOMContentLoaded, load and new tabs; off by default',
  ),
  interaction: /* @__PURE__ */ described(categoryConfig, 'clicks and keys; off by default'),
  screenshot: /* @__PURE__ */ described(categoryConfig, 'periodic screenshots; off by default'),
});

/**
 * `telemetry` on a create (a browser, a pool): absent or null captures nothing; `{}` or
 * `{enabled: true}` the operational categories; `browser` turns categories on or off over those;
 * `{enabled: false}` nothing (and names no category).
 */
export const TelemetryInputSchema = /* @__PURE__ */ nullable(
  /* @__PURE__ */ pipe(
    /* @__PURE__ */ requestObject({
      enabled: /* @__PURE__ */ described(
        /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be true or false')),
        'false: capture nothing; true or absent: the operational categories and those turned on',
      ),
      browser: /* @__PURE__ */ described(
        /* @__PURE__ */ optional(TelemetryCategoriesInputSchema),
        'categories turned on or off over the defaults',
      ),
    }),
    /* @__PURE__ */ check(
      (input) => input.enabled !== false || input.browser === undefined,
      'enabled: false captures nothing: it names no category',
    ),
  ),
);

/** A telemetry configuration, as a caller writes it. */
export type TelemetryInput = InferInput<typeof TelemetryInputSchema>;

const categoryState = /* @__PURE__ */ described(
  /* @__PURE__ */ optional(
    /* @__PURE__ */ object({
      enabled: /* @__PURE__ */ described(/* @__PURE__ */ boolean(), 'whether it is captured'),
    }),
  ),
  'one category of events',
);

/** The telemetry a session (or a pool's sessions) captures, every category said. */
export const TelemetryConfigSchema = /* @__PURE__ */ object({
  browser: /* @__PURE__ */ described(
    /* @__PURE__ */ object({
      control: categoryState,
      connection: categoryState,
      system: categoryState,
      captcha: categoryState,
      console: categoryState,
      network: categoryState,
      page: categoryState,
      interaction: categoryState,
      screenshot: categoryState,
    }),
    'its categories',
  ),
});

/** The telemetry a session captures. */
export type TelemetryConfig = InferOutput<typeof TelemetryConfigSchema>;

/**
 * The telemetry a configuration asks for, every category said; undefined when it captures
 * nothing (absent, null, `enabled: false`, or every category off).
 */
export function resolveTelemetry(input: TelemetryInput | undefined): TelemetryConfig | undefined {
  if (input === undefined || input === null || input.enabled === false) return undefined;
  const browser: Record<string, { enabled: boolean }> = {};
  let any = false;
  for (const category of TELEMETRY_CATEGORIES) {
    const asked = input.browser?.[category]?.enabled;
    const enabled = asked ?? DEFAULT_TELEMETRY_CATEGORIES.includes(category);
    browser[category] = { enabled };
    any ||= enabled;
  }
  return any ? { browser: browser as TelemetryConfig['browser'] } : undefined;
}

/** The categories a configuration captures. */
export function telemetryCategories(config: TelemetryConfig | undefined): TelemetryCategory[] {
  if (!config) return [];
  return TELEMETRY_CATEGORIES.filter((category) => config.browser[category]?.enabled === true);
}

/** Who produced an event: the page (`cdp`), or the service's API (`kernel_api`, as peers say). */
export const TELEMETRY_SOURCES = ['cdp', 'kernel_api', 'extension', 'local_process'] as const;

/** One event of a session's telemetry. */
export const TelemetryEventSchema = /* @__PURE__ */ object({
  category: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(TELEMETRY_EVENT_CATEGORIES),
    'what kind of event: control, connection, console, network, page, …',
  ),
  type: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    'the event: api_call, cdp_connect, console_log, network_loading_failed, page_load, …',
  ),
  ts: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    'when it happened, Unix microseconds',
  ),
  source: /* @__PURE__ */ described(
    /* @__PURE__ */ object({
      kind: /* @__PURE__ */ described(
        /* @__PURE__ */ picklist(TELEMETRY_SOURCES),
        'cdp: the browser; kernel_api: the service API',
      ),
      event: /* @__PURE__ */ described(
        /* @__PURE__ */ optional(/* @__PURE__ */ string()),
        'the producer’s own name of the event (Runtime.consoleAPICalled, …)',
      ),
      metadata: /* @__PURE__ */ described(
        /* @__PURE__ */ optional(
          /* @__PURE__ */ record(/* @__PURE__ */ string(), /* @__PURE__ */ string()),
        ),
        'the producer’s own context',
      ),
    }),
    'who produced it',
  ),
  data: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ record(/* @__PURE__ */ string(), /* @__PURE__ */ unknown()),
    ),
    'what the event says; its fields depend on `type`',
  ),
  truncated: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'true when data was longer than 8 KiB of JSON and was cut',
  ),
});

/** One event of a session's telemetry. */
export type TelemetryEvent = InferOutput<typeof TelemetryEventSchema>;

/** An event and its place in the session's telemetry: `seq` grows by one per event, from 1. */
export const TelemetryEnvelopeSchema = /* @__PURE__ */ object({
  seq: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ number(),
      /* @__PURE__ */ integer(),
      /* @__PURE__ */ minValue(1),
    ),
    'its sequence number in the session, from 1; a gap means events were dropped',
  ),
  event: /* @__PURE__ */ described(TelemetryEventSchema, 'the event'),
});

/** An event and its place in the session's telemetry. */
export type TelemetryEnvelope = InferOutput<typeof TelemetryEnvelopeSchema>;

/** A page of GET /browsers/{id}/telemetry/events. */
export const TelemetryEnvelopeListSchema = /* @__PURE__ */ array(TelemetryEnvelopeSchema);
