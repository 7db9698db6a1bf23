import { type InferInput, type InferOutput, optional } from 'valibot';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';

/** Largest coordinate or size of a screenshot region, in CSS pixels. */
const MAX_REGION_PIXELS = 16_384;

/** A rectangle of the page to capture. */
export const ScreenshotRegionSchema = /* @__PURE__ */ requestObject({
  x: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(0, MAX_REGION_PIXELS),
    'left edge, CSS pixels, from 0',
  ),
  y: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(0, MAX_REGION_PIXELS),
    'top edge, CSS pixels, from 0',
  ),
  width: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(1, MAX_REGION_PIXELS),
    `width in CSS pixels, 1–${MAX_REGION_PIXELS}`,
  ),
  height: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(1, MAX_REGION_PIXELS),
    `height in CSS pixels, 1–${MAX_REGION_PIXELS}`,
  ),
});

/** A rectangle of the page to capture. */
export type ScreenshotRegion = InferOutput<typeof ScreenshotRegionSchema>;

/** Body of POST /browsers/{id}/computer/screenshot; absent means the whole viewport. */
export const ScreenshotBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    region: /* @__PURE__ */ described(
      optional(ScreenshotRegionSchema),
      'the part of the viewport to capture, default all of it',
    ),
  }),
  {},
);

/** What a screenshot call asks for. */
export type ScreenshotInput = InferInput<typeof ScreenshotBodySchema>;
