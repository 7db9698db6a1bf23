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
  BrowserTimeoutSchema,
  ExtensionReferencesSchema,
  ProfileReferenceSchema,
} from '../browsers/create-browser.js';
import { ViewportInputSchema } from '../browsers/viewport-input.js';
import { integerBetween } from '../common/numbers.js';
import { JsonObjectSchema, requestObject } from '../common/request-object.js';
import { IdSchema, NameSchema } from '../common/scalars.js';

/** Bounds of a pool's size, in browsers. */
export const POOL_SIZE = { min: 1, max: 500 } as const;

/** Bounds and default of a pool's refill rate: percent of `size` started per minute. */
export const POOL_FILL_RATE_PERCENT = { min: 1, max: 100, default: 10 } as const;

/** Bounds and default of how long acquire waits for a free browser, in seconds. */
export const ACQUIRE_TIMEOUT_SECONDS = { min: 0, max: 300, default: 30 } as const;

/** Default idle time-out of an acquired pool browser, in seconds. */
export const POOL_BROWSER_TIMEOUT_SECONDS = 600;

/** A pool's profile: loaded by each of its browsers, read-only (pool browsers never save). */
export const PoolProfileReferenceSchema = pipe(
  ProfileReferenceSchema,
  check(
    (profile) => profile.save_changes !== true,
    "save_changes must be false: a pool's browsers load the profile read-only, never saving into it",
  ),
);

const poolConfigEntries = {
  name: NameSchema,
  size: integerBetween(POOL_SIZE.min, POOL_SIZE.max),
  fill_rate_per_minute: integerBetween(POOL_FILL_RATE_PERCENT.min, POOL_FILL_RATE_PERCENT.max),
  timeout_seconds: BrowserTimeoutSchema,
  stealth: boolean('must be true or false'),
  headless: boolean('must be true or false'),
  profile: PoolProfileReferenceSchema,
  extensions: ExtensionReferencesSchema,
  proxy_id: IdSchema,
  viewport: ViewportInputSchema,
  kiosk_mode: boolean('must be true or false'),
  chrome_policy: JsonObjectSchema,
};

/** The same entries, each optional. */
// @__NO_SIDE_EFFECTS__
function optionalEntries<const TEntries extends Record<string, GenericSchema>>(
  entries: TEntries,
): { [K in keyof TEntries]: OptionalSchema<TEntries[K], undefined> } {
  const result: Record<string, GenericSchema> = {};
  for (const [key, schema] of Object.entries(entries)) result[key] = optional(schema);
  return result as { [K in keyof TEntries]: OptionalSchema<TEntries[K], undefined> };
}

/** Body of POST /browser_pools: `size` is required, the rest have defaults or stay unset. */
export const CreateBrowserPoolBodySchema = requestObject({
  ...optionalEntries(poolConfigEntries),
  size: poolConfigEntries.size,
  fill_rate_per_minute: optional(
    poolConfigEntries.fill_rate_per_minute,
    POOL_FILL_RATE_PERCENT.default,
  ),
  timeout_seconds: optional(poolConfigEntries.timeout_seconds, POOL_BROWSER_TIMEOUT_SECONDS),
  stealth: optional(poolConfigEntries.stealth, false),
  headless: optional(poolConfigEntries.headless, true),
  kiosk_mode: optional(poolConfigEntries.kiosk_mode, false),
});

/** What a create-pool call asks for, as a caller writes it. */
export type CreateBrowserPoolInput = InferInput<typeof CreateBrowserPoolBodySchema>;

/** Body of PATCH /browser_pools/{id_or_name}: any subset of the configuration. */
export const UpdateBrowserPoolBodySchema = requestObject(optionalEntries(poolConfigEntries));

/** What an update-pool call asks for. */
export type UpdateBrowserPoolInput = InferInput<typeof UpdateBrowserPoolBodySchema>;

/** A boolean in a query string: `true`/`false`, or a boolean where a caller builds the query. */
export const QueryBooleanSchema = union(
  [
    boolean(),
    pipe(
      picklist(['true', 'false']),
      transform((value) => value === 'true'),
    ),
  ],
  'must be true or false',
);

/** Query of DELETE /browser_pools/{id_or_name}: `force` deletes even with browsers acquired. */
export const DeleteBrowserPoolQuerySchema = requestObject({
  force: optional(QueryBooleanSchema, false),
});

/** Body of POST /browser_pools/{id_or_name}/acquire; absent means the default wait. */
export const AcquireBrowserBodySchema = optional(
  requestObject({
    acquire_timeout_seconds: optional(
      integerBetween(ACQUIRE_TIMEOUT_SECONDS.min, ACQUIRE_TIMEOUT_SECONDS.max),
      ACQUIRE_TIMEOUT_SECONDS.default,
    ),
  }),
  {},
);

/** What an acquire call asks for. */
export type AcquireBrowserInput = InferInput<typeof AcquireBrowserBodySchema>;

/** Body of POST /browser_pools/{id_or_name}/release. `reuse: false` replaces the browser. */
export const ReleaseBrowserBodySchema = requestObject({
  session_id: IdSchema,
  reuse: optional(boolean('must be true or false'), true),
});

/** What a release call asks for. */
export type ReleaseBrowserInput = InferInput<typeof ReleaseBrowserBodySchema>;
