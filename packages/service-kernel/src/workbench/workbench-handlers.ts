import type { BrowserInstance } from '../engines.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations = 'browsers.playwright.execute';

/** The workbench operations over the service model: Playwright code, logs, curl, telemetry. */
export function workbenchHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'browsers.playwright.execute': async ({ runtime, params, body, signal }) => ({
      status: 200,
      json: await runtime.playwright.execute(params.id, body, signal),
    }),
  };
}
