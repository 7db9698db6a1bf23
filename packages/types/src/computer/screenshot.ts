import { type InferInput, type InferOutput, optional } from 'valibot';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';

/** Largest coordinate or size of a screenshot region, in CSS pixels. */
const MAX_REGION_PIXELS = 16_384;

/** A rectangle of the page to capture. */
export const ScreenshotRegionSchema = requestObject({
  x: integerBetween(0, MAX_REGION_PIXELS),
  y: integerBetween(0, MAX_REGION_PIXELS),
  width: integerBetween(1, MAX_REGION_PIXELS),
  height: integerBetween(1, MAX_REGION_PIXELS),
});

/** A rectangle of the page to capture. */
export type ScreenshotRegion = InferOutput<typeof ScreenshotRegionSchema>;

/** Body of POST /browsers/{id}/computer/screenshot; absent means the whole viewport. */
export const ScreenshotBodySchema = optional(
  requestObject({ region: optional(ScreenshotRegionSchema) }),
  {},
);

/** What a screenshot call asks for. */
export type ScreenshotInput = InferInput<typeof ScreenshotBodySchema>;
