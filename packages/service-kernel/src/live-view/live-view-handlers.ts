import type { BrowserInstance } from '../engines.js';
import type { HandlerGroup } from '../handler-group.js';

/** The live view operation over the service model. */
export function liveViewHandlers<I extends BrowserInstance>(): HandlerGroup<
  I,
  'browsers.liveView.create'
> {
  return {
    'browsers.liveView.create': ({ runtime, params, body, origin }) => ({
      status: 201,
      json: runtime.liveViews.create(params.id, body, origin),
    }),
  };
}
