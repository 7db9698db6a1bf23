import {
  array,
  boolean,
  check,
  type InferInput,
  type InferOutput,
  maxLength,
  optional,
  pipe,
  union,
} from 'valibot';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';
import { IdSchema, NameSchema } from '../common/scalars.js';
import { ViewportInputSchema } from './viewport-input.js';

/** Bounds and default of a browser's idle time-out, in seconds. */
export const BROWSER_TIMEOUT_SECONDS = { min: 10, max: 259_200, default: 60 } as const;

/**
 * How long the jwt of a session URL (`cdp_ws_url`, …) stays valid, in seconds: 24 h from when the
 * URL was handed out. A session read with less than half of that left gets a fresh URL.
 */
export const SESSION_URL_LIFETIME_SECONDS = 86_400;

/** Most extensions one browser loads. */
export const MAX_EXTENSIONS_PER_BROWSER = 20;

/** A reference to an uploaded extension, by id or by name. */
export const ExtensionReferenceSchema = /* @__PURE__ */ union(
  [
    /* @__PURE__ */ requestObject({ id: IdSchema }),
    /* @__PURE__ */ requestObject({ name: NameSchema }),
  ],
  'must be {id} or {name}',
);

/** A reference to a profile, by id or by name, and whether the session saves into it. */
export const ProfileReferenceSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ requestObject({
    id: /* @__PURE__ */ optional(IdSchema),
    name: /* @__PURE__ */ optional(NameSchema),
    save_changes: /* @__PURE__ */ optional(/* @__PURE__ */ boolean(), false),
  }),
  /* @__PURE__ */ check(
    (profile) => profile.id !== undefined || profile.name !== undefined,
    'needs id or name',
  ),
);

/** The idle time-out of a browser, in seconds. */
export const BrowserTimeoutSchema = /* @__PURE__ */ integerBetween(
  BROWSER_TIMEOUT_SECONDS.min,
  BROWSER_TIMEOUT_SECONDS.max,
);

/** The extensions a browser loads. */
export const ExtensionReferencesSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ array(ExtensionReferenceSchema),
  /* @__PURE__ */ maxLength(
    MAX_EXTENSIONS_PER_BROWSER,
    `must list at most ${MAX_EXTENSIONS_PER_BROWSER}`,
  ),
);

/** Body of POST /browsers. A self-hosted service runs headless unless asked otherwise. */
export const CreateBrowserBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    headless: /* @__PURE__ */ optional(/* @__PURE__ */ boolean(), true),
    stealth: /* @__PURE__ */ optional(/* @__PURE__ */ boolean(), false),
    kiosk_mode: /* @__PURE__ */ optional(/* @__PURE__ */ boolean(), false),
    timeout_seconds: /* @__PURE__ */ optional(
      BrowserTimeoutSchema,
      BROWSER_TIMEOUT_SECONDS.default,
    ),
    viewport: /* @__PURE__ */ optional(ViewportInputSchema),
    extensions: /* @__PURE__ */ optional(ExtensionReferencesSchema),
    invocation_id: /* @__PURE__ */ optional(IdSchema),
    proxy_id: /* @__PURE__ */ optional(IdSchema),
    profile: /* @__PURE__ */ optional(ProfileReferenceSchema),
  }),
  {},
);

/** What POST /browsers asks for, as a caller writes it. */
export type CreateBrowserInput = InferInput<typeof CreateBrowserBodySchema>;

/** What POST /browsers asks for, with every default applied. */
export type CreateBrowserBody = InferOutput<typeof CreateBrowserBodySchema>;
