import {
  boolean,
  type InferInput,
  type InferOutput,
  literal,
  nullish,
  optional,
  union,
} from 'valibot';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { IdSchema } from '../common/scalars.js';
import { BrowserTagsSchema } from './browser-tags.js';
import {
  BROWSER_TIMEOUT_SECONDS,
  BrowserNameSchema,
  BrowserTimeoutSchema,
} from './create-browser.js';
import { ViewportInputSchema } from './viewport-input.js';

/** A new window size for a running browser, and whether to apply it while it is recorded. */
export const ViewportUpdateSchema = /* @__PURE__ */ requestObject({
  ...ViewportInputSchema.entries,
  force: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean(), false),
    'apply it while the browser is recorded: each recording ends and a new one starts at the new size; default false (409 instead)',
  ),
});

/**
 * Body of PATCH /browsers/{id}: what changes on a running browser. A field left out (or null)
 * keeps its value; `name: ""` clears the name, `tags` replaces every tag (`{}` clears them),
 * `proxy_id: ""` sends new connections direct.
 */
export const UpdateBrowserBodySchema = /* @__PURE__ */ requestObject({
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ nullish(
      /* @__PURE__ */ union([BrowserNameSchema, /* @__PURE__ */ literal('')]),
    ),
    'new name, unique among the running browsers of the project; "" clears it',
  ),
  tags: /* @__PURE__ */ described(
    /* @__PURE__ */ nullish(BrowserTagsSchema),
    'the whole new set of tags (replaces every tag; {} clears them), at most 50',
  ),
  viewport: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(ViewportUpdateSchema),
    'new window size, applied to the running browser (409 while it is recorded, unless force)',
  ),
  proxy_id: /* @__PURE__ */ described(
    /* @__PURE__ */ nullish(/* @__PURE__ */ union([IdSchema, /* @__PURE__ */ literal('')])),
    'proxy its new connections go through; "" sends them direct',
  ),
  timeout_seconds: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(BrowserTimeoutSchema),
    `new idle time-out, seconds, ${BROWSER_TIMEOUT_SECONDS.min}–${BROWSER_TIMEOUT_SECONDS.max}`,
  ),
});

/** What PATCH /browsers/{id} asks for, as a caller writes it. */
export type UpdateBrowserInput = InferInput<typeof UpdateBrowserBodySchema>;

/** What PATCH /browsers/{id} asks for, defaults applied. */
export type UpdateBrowserBody = InferOutput<typeof UpdateBrowserBodySchema>;
