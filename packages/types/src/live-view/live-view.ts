import {
  type InferInput,
  type InferOutput,
  object,
  optional,
  picklist,
  pipe,
  string,
  url,
} from 'valibot';
import { SESSION_URL_LIFETIME_SECONDS } from '../browsers/create-browser.js';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';
import { TimestampSchema } from '../common/scalars.js';

/** How a live view link lets its holder act: `control` watches and drives, `read` only watches. */
export const LIVE_VIEW_MODES = ['control', 'read'] as const;

/** A live view link's mode. */
export type LiveViewMode = (typeof LIVE_VIEW_MODES)[number];

/** Body of POST /browsers/{id}/live_view; absent means a control link for the jwt lifetime. */
export const CreateLiveViewBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    mode: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ picklist(LIVE_VIEW_MODES), 'control'),
      'control (watch and drive) or read (watch only), default control',
    ),
    ttl_seconds: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(
        /* @__PURE__ */ integerBetween(1, SESSION_URL_LIFETIME_SECONDS),
        SESSION_URL_LIFETIME_SECONDS,
      ),
      `seconds the link works, 1–${SESSION_URL_LIFETIME_SECONDS}, default ${SESSION_URL_LIFETIME_SECONDS}`,
    ),
  }),
  {},
);

/** Body of POST /browsers/{id}/live_view, as a caller writes it. */
export type CreateLiveViewBody = InferInput<typeof CreateLiveViewBodySchema>;

/** A live view link: a web page that shows the session's screen and, in control mode, drives it. */
export const LiveViewSchema = /* @__PURE__ */ object({
  url: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ string(), /* @__PURE__ */ url('must be a URL')),
    'the live view page, with a jwt for this session and mode',
  ),
  mode: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(LIVE_VIEW_MODES),
    'control (watch and drive) or read (watch only)',
  ),
  expires_at: /* @__PURE__ */ described(
    TimestampSchema,
    'when the link stops working (ISO 8601 UTC); it also stops when the session ends',
  ),
});

/** A live view link. */
export type LiveView = InferOutput<typeof LiveViewSchema>;
