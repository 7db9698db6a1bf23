import type { BrowserInstance } from '../engines.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations = 'browsers.computer.type' | 'browsers.computer.screenshot';

/** The computer controls over the service model. */
export function computerHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'browsers.computer.type': async ({ runtime, params, body, signal }) => {
      await runtime.computer.type(params.id, body.text, body.delay, signal);
      return { status: 204 };
    },
    'browsers.computer.screenshot': async ({ runtime, params, body }) => ({
      status: 200,
      bytes: await runtime.computer.screenshot(params.id, body.region),
      contentType: 'image/png',
    }),
  };
}
