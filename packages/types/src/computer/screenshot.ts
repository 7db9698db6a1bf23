import { type InferInput, type InferOutput, optional } from 'valibot';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';

/** Largest coordinate or size of a screenshot region, in CSS pixels. */
const MAX_REGION_PIXELS = 16_384;

/** A rectangle of the page to capture. */
export const ScreenshotRegionSchema = /* @__PURE__ */ requestObject({
  x: /* @__PURE__ */ integerBetween(0, MAX_REGION_PIXELS),
  y: /* @__PURE__ */ integerBetween(0, MAX_REGION_PIXELS),
  width: /* @__PURE__ */ integerBetween(1, MAX_REGION_PIXELS),
  height: /* @__PURE__ */ integerBetween(1, MAX_REGION_PIXELS),
});

/** A rectangle of the page to capture. */
export type ScreenshotRegion = InferOutput<typeof ScreenshotRegionSchema>;

/** Body of POST /browsers/{id}/computer/screenshot; absent means the whole viewport. */
export const ScreenshotBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({ region: optional(ScreenshotRegionSchema) }),
  {},
);

/** What a screenshot call asks for. */
export type ScreenshotInput = InferInput<typeof ScreenshotBodySchema>;
