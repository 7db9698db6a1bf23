import type { BrowserInstance } from '../engines.js';
import type { HandlerGroup } from '../handler-group.js';

/** The curl operation over the service model: an HTTP request made through the browser. */
export function curlHandlers<I extends BrowserInstance>(): HandlerGroup<I, 'browsers.curl'> {
  return {
    'browsers.curl': async ({ runtime, params, body, signal }) => ({
      status: 200,
      json: await runtime.curl.fetch(params.id, body, signal),
    }),
  };
}
