import {
  array,
  boolean,
  check,
  type InferInput,
  type InferOutput,
  maxLength,
  optional,
  pipe,
  string,
  transform,
  union,
} from 'valibot';
import { described } from '../common/describe.js';
import {
  formatNetworkEntry,
  MAX_NETWORK_ENTRIES,
  parseNetworkEntry,
} from '../common/network-entries.js';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';
import { IdSchema, NameSchema } from '../common/scalars.js';
import { TelemetryInputSchema } from '../telemetry/telemetry.js';
import { BrowserTagsSchema } from './browser-tags.js';
import { ChromePolicySchema, StartUrlSchema } from './start-options.js';
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
    /* @__PURE__ */ requestObject({ id: /* @__PURE__ */ described(IdSchema, 'extension id') }),
    /* @__PURE__ */ requestObject({
      name: /* @__PURE__ */ described(NameSchema, 'extension name'),
    }),
  ],
  'must be {id} or {name}',
);

/** A reference to a profile, by id or by name, and whether the session saves into it. */
export const ProfileReferenceSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ requestObject({
    id: /* @__PURE__ */ described(/* @__PURE__ */ optional(IdSchema), 'profile id'),
    name: /* @__PURE__ */ described(/* @__PURE__ */ optional(NameSchema), 'profile name'),
    save_changes: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ boolean(), false),
      "save the browser's state into the profile when it ends, default false",
    ),
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

/**
 * What a browser's network may reach besides the public internet: entries the operator opened
 * (`XB_ALLOW_NETWORKS`), or fewer. Each is an IPv4 network (`10.1.0.0/16`), an address
 * (`10.1.2.3`) or an address and port (`127.0.0.1:8080`, `localhost:8080`), kept in canonical form.
 */
export const NetworkInputSchema = /* @__PURE__ */ requestObject({
  allow: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ array(
        /* @__PURE__ */ pipe(
          /* @__PURE__ */ string('must be a string'),
          /* @__PURE__ */ check(
            (entry) => typeof parseNetworkEntry(entry) !== 'string',
            (issue) => `"${String(issue.input)}" ${String(parseNetworkEntry(String(issue.input)))}`,
          ),
          /* @__PURE__ */ transform((entry) =>
            formatNetworkEntry(
              parseNetworkEntry(entry) as Exclude<ReturnType<typeof parseNetworkEntry>, string>,
            ),
          ),
        ),
      ),
      // A plain string: a template literal would keep the schema in every bundle of this module.
      /* @__PURE__ */ maxLength(MAX_NETWORK_ENTRIES, 'must list at most 64'),
    ),
    'private networks and host:port the browser may reach, each within what the operator allows',
  ),
});

/** A session id as the service makes them: a browser's name may not look like one. */
const SESSION_ID_PATTERN = /^br_[A-Za-z0-9]{12}$/;

/**
 * A browser's name: 1–255 characters of A-Z, a-z, 0-9, `.`, `_` or `-`, and not shaped like a
 * session id (ids are looked up before names).
 */
export const BrowserNameSchema = /* @__PURE__ */ pipe(
  NameSchema,
  /* @__PURE__ */ check(
    (name) => !SESSION_ID_PATTERN.test(name),
    'must not look like a session id (br_ and 12 letters or digits)',
  ),
);

/** Body of POST /browsers. A self-hosted service runs headless unless asked otherwise. */
export const CreateBrowserBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    name: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(BrowserNameSchema),
      'a name to find it by, unique among the running browsers of the project',
    ),
    tags: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(BrowserTagsSchema),
      'key-value tags, at most 50 (keys 1–64, values ≤ 256 characters)',
    ),
    headless: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ boolean(), true),
      'run without a display, default true',
    ),
    stealth: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ boolean(), false),
      'hide the signs of an automated headless browser (webdriver flag, headless user agent and client hints, screen size), default false',
    ),
    kiosk_mode: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ boolean(), false),
      'show no browser UI, default false',
    ),
    gpu: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
      'GPU acceleration: true is refused where the server renders without a GPU (every self-hosted server today)',
    ),
    start_url: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(StartUrlSchema),
      'an http(s) page its first tab opens once it runs, without waiting for it to load (a page that fails to load does not fail the create)',
    ),
    chrome_policy: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(ChromePolicySchema),
      'Chrome enterprise policies it starts with, by name; those the service sets itself (extensions, proxy, DevTools, headless mode, its folders) are refused',
    ),
    timeout_seconds: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(BrowserTimeoutSchema, BROWSER_TIMEOUT_SECONDS.default),
      `idle time-out, seconds, ${BROWSER_TIMEOUT_SECONDS.min}–${BROWSER_TIMEOUT_SECONDS.max}, default ${BROWSER_TIMEOUT_SECONDS.default}: deleted after this long with no API call on it, no DevTools or BiDi client connected and nobody in its live view`,
    ),
    viewport: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(ViewportInputSchema),
      'window size, width 320–7680 and height 200–4320 pixels, default 1920×1080',
    ),
    extensions: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(ExtensionReferencesSchema),
      'extensions to load, by id or name, at most 20',
    ),
    invocation_id: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(IdSchema),
      'the running invocation the session belongs to',
    ),
    proxy_id: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(IdSchema),
      'proxy to route every request through',
    ),
    profile: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(ProfileReferenceSchema),
      'profile to load, by id or name (save_changes to save into it)',
    ),
    network: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(NetworkInputSchema),
      'private destinations it may reach, a subset of what the operator allows; none by default',
    ),
    telemetry: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(TelemetryInputSchema),
      'what its telemetry captures: {} for the operational categories, browser.<category>.enabled for more; none by default',
    ),
  }),
  {},
);

/** What POST /browsers asks for, as a caller writes it. */
export type CreateBrowserInput = InferInput<typeof CreateBrowserBodySchema>;

/** What POST /browsers asks for, with every default applied. */
export type CreateBrowserBody = InferOutput<typeof CreateBrowserBodySchema>;
