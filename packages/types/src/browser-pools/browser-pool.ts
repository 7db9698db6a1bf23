import {
  array,
  boolean,
  type InferOutput,
  integer,
  minValue,
  number,
  object,
  optional,
  pipe,
  string,
} from 'valibot';
import { ViewportSchema } from '../browsers/viewport.js';
import { JsonObjectSchema } from '../common/request-object.js';
import { CountSchema, TimestampSchema } from '../common/scalars.js';

/** The configuration every browser of a pool is created with, as a server reports it. */
export const BrowserPoolConfigSchema = object({
  size: pipe(number(), integer(), minValue(1)),
  name: optional(string()),
  fill_rate_per_minute: optional(pipe(number(), integer())),
  timeout_seconds: optional(pipe(number(), integer())),
  stealth: optional(boolean()),
  headless: optional(boolean()),
  profile: optional(
    object({
      id: optional(string()),
      name: optional(string()),
      save_changes: optional(boolean()),
    }),
  ),
  extensions: optional(array(object({ id: optional(string()), name: optional(string()) }))),
  proxy_id: optional(string()),
  viewport: optional(ViewportSchema),
  kiosk_mode: optional(boolean()),
  chrome_policy: optional(JsonObjectSchema),
});

/** The configuration of a pool's browsers. */
export type BrowserPoolConfig = InferOutput<typeof BrowserPoolConfigSchema>;

/** A pool of identically configured browsers (operation 4.3). */
export const BrowserPoolSchema = object({
  id: string(),
  name: optional(string()),
  available_count: CountSchema,
  acquired_count: CountSchema,
  created_at: TimestampSchema,
  browser_pool_config: BrowserPoolConfigSchema,
});

/** A pool of identically configured browsers. */
export type BrowserPool = InferOutput<typeof BrowserPoolSchema>;

/** The list of a GET /browser_pools call. */
export const BrowserPoolListSchema = array(BrowserPoolSchema);
