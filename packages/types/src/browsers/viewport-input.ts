import { optional } from 'valibot';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';
import { VIEWPORT_BOUNDS } from './viewport.js';

/** The fields of a window size as a request asks for it, for the schemas that take one. */
const viewportInputEntries = {
  width: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(VIEWPORT_BOUNDS.width.min, VIEWPORT_BOUNDS.width.max),
    `width in CSS pixels, ${VIEWPORT_BOUNDS.width.min}–${VIEWPORT_BOUNDS.width.max}`,
  ),
  height: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(VIEWPORT_BOUNDS.height.min, VIEWPORT_BOUNDS.height.max),
    `height in CSS pixels, ${VIEWPORT_BOUNDS.height.min}–${VIEWPORT_BOUNDS.height.max}`,
  ),
  refresh_rate: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ integerBetween(
        VIEWPORT_BOUNDS.refreshRate.min,
        VIEWPORT_BOUNDS.refreshRate.max,
      ),
    ),
    'refresh rate in Hz',
  ),
};

/** A browser window size as a request asks for it, within `VIEWPORT_BOUNDS`. */
export const ViewportInputSchema = /* @__PURE__ */ requestObject(viewportInputEntries);
