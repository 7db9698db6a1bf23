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
import { SessionNetworkSchema } from '../browsers/session-network.js';
import { ViewportSchema } from '../browsers/viewport.js';
import { described } from '../common/describe.js';
import { JsonObjectSchema } from '../common/request-object.js';
import { CountSchema, TimestampSchema } from '../common/scalars.js';
import { TelemetryConfigSchema } from '../telemetry/telemetry.js';

/** The configuration every browser of a pool is created with, as a server reports it. */
export const BrowserPoolConfigSchema = /* @__PURE__ */ object({
  size: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ number(),
      /* @__PURE__ */ integer(),
      /* @__PURE__ */ minValue(1),
    ),
    'browsers the pool keeps warm, 1–500',
  ),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "the pool's name",
  ),
  fill_rate_per_minute: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    ),
    'percent of the size started per minute while filling, 1–100',
  ),
  timeout_seconds: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    ),
    "idle time-out of the pool's acquired browsers, in seconds",
  ),
  stealth: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether its browsers hide automation signals',
  ),
  headless: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether its browsers run without a display',
  ),
  profile: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ object({
        id: /* @__PURE__ */ described(
          /* @__PURE__ */ optional(/* @__PURE__ */ string()),
          'profile id',
        ),
        name: /* @__PURE__ */ described(
          /* @__PURE__ */ optional(/* @__PURE__ */ string()),
          'profile name',
        ),
        save_changes: /* @__PURE__ */ described(
          /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
          'always false for a pool',
        ),
      }),
    ),
    'the profile its browsers load, read-only',
  ),
  extensions: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ array(
        /* @__PURE__ */ object({
          id: /* @__PURE__ */ described(
            /* @__PURE__ */ optional(/* @__PURE__ */ string()),
            'extension id',
          ),
          name: /* @__PURE__ */ described(
            /* @__PURE__ */ optional(/* @__PURE__ */ string()),
            'extension name',
          ),
        }),
      ),
    ),
    'extensions its browsers load, by id or name',
  ),
  proxy_id: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'proxy its browsers route through',
  ),
  network: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(SessionNetworkSchema),
    'private destinations its browsers may reach',
  ),
  viewport: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(ViewportSchema),
    "its browsers' window size",
  ),
  kiosk_mode: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether its browsers show no browser UI',
  ),
  chrome_policy: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(JsonObjectSchema),
    'Chromium enterprise policies its browsers start with, as JSON',
  ),
  telemetry: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TelemetryConfigSchema),
    'what its browsers’ telemetry captures',
  ),
});

/** The configuration of a pool's browsers. */
export type BrowserPoolConfig = InferOutput<typeof BrowserPoolConfigSchema>;

/** A pool of identically configured browsers (operation 4.3). */
export const BrowserPoolSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the pool's id"),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "the pool's unique name",
  ),
  available_count: /* @__PURE__ */ described(CountSchema, 'warm browsers ready to acquire, ≥ 0'),
  acquired_count: /* @__PURE__ */ described(
    CountSchema,
    'browsers handed out and not released, ≥ 0',
  ),
  created_at: /* @__PURE__ */ described(TimestampSchema, 'when the pool was made (ISO 8601 UTC)'),
  browser_pool_config: /* @__PURE__ */ described(
    BrowserPoolConfigSchema,
    "the pool's configuration",
  ),
});

/** A pool of identically configured browsers. */
export type BrowserPool = InferOutput<typeof BrowserPoolSchema>;

/** The list of a GET /browser_pools call. */
export const BrowserPoolListSchema = /* @__PURE__ */ array(BrowserPoolSchema);
