import { type InferOutput, integer, number, object, optional, pipe } from 'valibot';

/** Bounds of a browser window, in CSS pixels and hertz. */
export const VIEWPORT_BOUNDS = {
  width: { min: 320, max: 7680 },
  height: { min: 240, max: 4320 },
  refreshRate: { min: 1, max: 240 },
} as const;

/** A browser window size as a server reports it. */
export const ViewportSchema = /* @__PURE__ */ object({
  width: /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
  height: /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
  refresh_rate: /* @__PURE__ */ optional(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
  ),
});

/** A browser window size. */
export type Viewport = InferOutput<typeof ViewportSchema>;
