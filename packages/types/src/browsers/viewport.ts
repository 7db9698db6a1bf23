import { type InferOutput, integer, number, object, optional, pipe } from 'valibot';
import { described } from '../common/describe.js';

/** Bounds of a browser window, in CSS pixels and hertz. */
export const VIEWPORT_BOUNDS = {
  width: { min: 320, max: 7680 },
  height: { min: 240, max: 4320 },
  refreshRate: { min: 1, max: 240 },
} as const;

/** A browser window size as a server reports it. */
export const ViewportSchema = /* @__PURE__ */ object({
  width: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    'width in CSS pixels',
  ),
  height: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    'height in CSS pixels',
  ),
  refresh_rate: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    ),
    'refresh rate in Hz',
  ),
});

/** A browser window size. */
export type Viewport = InferOutput<typeof ViewportSchema>;
