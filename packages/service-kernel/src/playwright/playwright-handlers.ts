import type { BrowserInstance } from '../engines.js';
import type { HandlerGroup } from '../handler-group.js';

/** The Playwright operation over the service model: code run beside the browser. */
export function playwrightHandlers<I extends BrowserInstance>(): HandlerGroup<
  I,
  'browsers.playwright.execute'
> {
  return {
    'browsers.playwright.execute': async ({ runtime, params, body, signal }) => ({
      status: 200,
      json: await runtime.playwright.execute(params.id, body, signal),
    }),
  };
}
