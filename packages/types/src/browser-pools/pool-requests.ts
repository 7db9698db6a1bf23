import {
  boolean,
  check,
  type GenericSchema,
  type InferInput,
  type OptionalSchema,
  optional,
  picklist,
  pipe,
  transform,
  union,
} from 'valibot';
import {
  BROWSER_TIMEOUT_SECONDS,
  BrowserTimeoutSchema,
  ExtensionReferencesSchema,
  NetworkInputSchema,
  ProfileReferenceSchema,
} from '../browsers/create-browser.js';
import { ViewportInputSchema } from '../browsers/viewport-input.js';
import { described } from '../common/describe.js';
import { ACQUIRE_TIMEOUT_SECONDS } from '../common/limits.js';
import { integerBetween } from '../common/numbers.js';
import { JsonObjectSchema, requestObject } from '../common/request-object.js';
import { IdSchema, NameSchema } from '../common/scalars.js';
import { TelemetryInputSchema } from '../telemetry/telemetry.js';

/** Bounds of a pool's size, in browsers. */
export const POOL_SIZE = { min: 1, max: 500 } as const;

/** Bounds and default of a pool's refill rate: percent of `size` started per minute. */
export const POOL_FILL_RATE_PERCENT = { min: 1, max: 100, default: 10 } as const;

/** Default idle time-out of an acquired pool browser, in seconds. */
export const POOL_BROWSER_TIMEOUT_SECONDS = 600;

/** A pool's profile: loaded by each of its browsers, read-only (pool browsers never save). */
export const PoolProfileReferenceSchema = /* @__PURE__ */ pipe(
  ProfileReferenceSchema,
  /* @__PURE__ */ check(
    (profile) => profile.save_changes !== true,
    "save_changes must be false: a pool's browsers load the profile read-only, never saving into it",
  ),
);

const poolConfigEntries = {
  name: /* @__PURE__ */ described(
    NameSchema,
    'unique name of the pool, [A-Za-z0-9._-], 1–255 characters',
  ),
  size: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(POOL_SIZE.min, POOL_SIZE.max),
    `browsers kept warm, ${POOL_SIZE.min}–${POOL_SIZE.max}`,
  ),
  fill_rate_per_minute: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(POOL_FILL_RATE_PERCENT.min, POOL_FILL_RATE_PERCENT.max),
    `percent of the size started per minute while filling, ${POOL_FILL_RATE_PERCENT.min}–${POOL_FILL_RATE_PERCENT.max}, default ${POOL_FILL_RATE_PERCENT.default}`,
  ),
  timeout_seconds: /* @__PURE__ */ described(
    BrowserTimeoutSchema,
    `idle time-out of an acquired browser, seconds, ${BROWSER_TIMEOUT_SECONDS.min}–${BROWSER_TIMEOUT_SECONDS.max}, default ${POOL_BROWSER_TIMEOUT_SECONDS}`,
  ),
  stealth: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean('must be true or false'),
    'hide the signs of an automated headless browser (webdriver flag, headless user agent and client hints, screen size), default false',
  ),
  headless: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean('must be true or false'),
    'run without a display, default true',
  ),
  profile: /* @__PURE__ */ described(
    PoolProfileReferenceSchema,
    'profile the browsers load read-only, by id or name',
  ),
  extensions: /* @__PURE__ */ described(
    ExtensionReferencesSchema,
    'extensions the browsers load, by id or name, at most 20',
  ),
  proxy_id: /* @__PURE__ */ described(IdSchema, 'proxy the browsers route through'),
  network: /* @__PURE__ */ described(
    NetworkInputSchema,
    'private destinations the browsers may reach, a subset of what the operator allows',
  ),
  viewport: /* @__PURE__ */ described(
    ViewportInputSchema,
    'window size, width 320–7680 and height 200–4320 pixels',
  ),
  kiosk_mode: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean('must be true or false'),
    'show no browser UI, default false',
  ),
  chrome_policy: /* @__PURE__ */ described(
    JsonObjectSchema,
    'Chromium enterprise policies, as a JSON object',
  ),
  telemetry: /* @__PURE__ */ described(
    TelemetryInputSchema,
    'what the telemetry of its browsers captures ({} for the operational categories); null: nothing',
  ),
};

/** The same entries, each optional. */
// @__NO_SIDE_EFFECTS__
function optionalEntries<const TEntries extends Record<string, GenericSchema>>(
  entries: TEntries,
): { [K in keyof TEntries]: OptionalSchema<TEntries[K], undefined> } {
  const result: Record<string, GenericSchema> = {};
  for (const [key, schema] of Object.entries(entries))
    result[key] = /* @__PURE__ */ optional(schema);
  return result as { [K in keyof TEntries]: OptionalSchema<TEntries[K], undefined> };
}

/** Body of POST /browser_pools: `size` is required, the rest have defaults or stay unset. */
export const CreateBrowserPoolBodySchema = /* @__PURE__ */ requestObject({
  ...optionalEntries(poolConfigEntries),
  size: poolConfigEntries.size,
  fill_rate_per_minute: /* @__PURE__ */ optional(
    poolConfigEntries.fill_rate_per_minute,
    POOL_FILL_RATE_PERCENT.default,
  ),
  timeout_seconds: /* @__PURE__ */ optional(
    poolConfigEntries.timeout_seconds,
    POOL_BROWSER_TIMEOUT_SECONDS,
  ),
  stealth: /* @__PURE__ */ optional(poolConfigEntries.stealth, false),
  headless: /* @__PURE__ */ optional(poolConfigEntries.headless, true),
  kiosk_mode: /* @__PURE__ */ optional(poolConfigEntries.kiosk_mode, false),
});

/** What a create-pool call asks for, as a caller writes it. */
export type CreateBrowserPoolInput = InferInput<typeof CreateBrowserPoolBodySchema>;

/** Body of PATCH /browser_pools/{id_or_name}: any subset of the configuration. */
export const UpdateBrowserPoolBodySchema = /* @__PURE__ */ requestObject(
  /* @__PURE__ */ optionalEntries(poolConfigEntries),
);

/** What an update-pool call asks for. */
export type UpdateBrowserPoolInput = InferInput<typeof UpdateBrowserPoolBodySchema>;

/** A boolean in a query string: `true`/`false`, or a boolean where a caller builds the query. */
export const QueryBooleanSchema = /* @__PURE__ */ union(
  [
    /* @__PURE__ */ boolean(),
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ picklist(['true', 'false']),
      /* @__PURE__ */ transform((value) => value === 'true'),
    ),
  ],
  'must be true or false',
);

/** Query of DELETE /browser_pools/{id_or_name}: `force` deletes even with browsers acquired. */
export const DeleteBrowserPoolQuerySchema = /* @__PURE__ */ requestObject({
  force: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(QueryBooleanSchema, false),
    'delete even while browsers are acquired (they end), default false',
  ),
});

/** Body of POST /browser_pools/{id_or_name}/acquire; absent means the default wait. */
export const AcquireBrowserBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    acquire_timeout_seconds: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(
        /* @__PURE__ */ integerBetween(ACQUIRE_TIMEOUT_SECONDS.min, ACQUIRE_TIMEOUT_SECONDS.max),
        ACQUIRE_TIMEOUT_SECONDS.default,
      ),
      `seconds to wait for a browser to come free, ${ACQUIRE_TIMEOUT_SECONDS.min}–${ACQUIRE_TIMEOUT_SECONDS.max}, default ${ACQUIRE_TIMEOUT_SECONDS.default}`,
    ),
  }),
  {},
);

/** What an acquire call asks for. */
export type AcquireBrowserInput = InferInput<typeof AcquireBrowserBodySchema>;

/** Body of POST /browser_pools/{id_or_name}/release. `reuse: false` replaces the browser. */
export const ReleaseBrowserBodySchema = /* @__PURE__ */ requestObject({
  session_id: /* @__PURE__ */ described(IdSchema, 'the acquired browser to hand back'),
  reuse: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be true or false'), true),
    'start its replacement at once, default true',
  ),
});

/** What a release call asks for. */
export type ReleaseBrowserInput = InferInput<typeof ReleaseBrowserBodySchema>;
