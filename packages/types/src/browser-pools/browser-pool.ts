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
export const BrowserPoolConfigSchema = /* @__PURE__ */ object({
  size: /* @__PURE__ */ pipe(
    /* @__PURE__ */ number(),
    /* @__PURE__ */ integer(),
    /* @__PURE__ */ minValue(1),
  ),
  name: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  fill_rate_per_minute: /* @__PURE__ */ optional(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
  ),
  timeout_seconds: /* @__PURE__ */ optional(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
  ),
  stealth: /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
  headless: /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
  profile: /* @__PURE__ */ optional(
    /* @__PURE__ */ object({
      id: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
      name: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
      save_changes: /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    }),
  ),
  extensions: /* @__PURE__ */ optional(
    /* @__PURE__ */ array(
      /* @__PURE__ */ object({
        id: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
        name: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
      }),
    ),
  ),
  proxy_id: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  viewport: /* @__PURE__ */ optional(ViewportSchema),
  kiosk_mode: /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
  chrome_policy: /* @__PURE__ */ optional(JsonObjectSchema),
});

/** The configuration of a pool's browsers. */
export type BrowserPoolConfig = InferOutput<typeof BrowserPoolConfigSchema>;

/** A pool of identically configured browsers (operation 4.3). */
export const BrowserPoolSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ string(),
  name: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  available_count: CountSchema,
  acquired_count: CountSchema,
  created_at: TimestampSchema,
  browser_pool_config: BrowserPoolConfigSchema,
});

/** A pool of identically configured browsers. */
export type BrowserPool = InferOutput<typeof BrowserPoolSchema>;

/** The list of a GET /browser_pools call. */
export const BrowserPoolListSchema = /* @__PURE__ */ array(BrowserPoolSchema);
