import type { BrowserInstance } from '../engines.js';
import { eventStreamBody } from '../event-stream.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'browsers.playwright.execute'
  | 'browsers.logs.stream'
  | 'browsers.curl'
  | 'browsers.telemetry.events'
  | 'browsers.telemetry.stream';

/** The workbench operations over the service model: Playwright code, logs, curl, telemetry. */
export function workbenchHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'browsers.playwright.execute': async ({ runtime, params, body, signal }) => ({
      status: 200,
      json: await runtime.playwright.execute(params.id, body, signal),
    }),
    'browsers.curl': async ({ runtime, params, body, signal }) => ({
      status: 200,
      json: await runtime.curl.fetch(params.id, body, signal),
    }),
    'browsers.logs.stream': async ({ runtime, params, query }) => {
      const lines = await runtime.logs.open(params.id, query);
      return { status: 200, events: eventStreamBody(lines) };
    },
    'browsers.telemetry.events': ({ runtime, params, query }) =>
      pageAnswer(runtime.telemetry.page(params.id, query)),
    'browsers.telemetry.stream': ({ runtime, params, query }) => {
      const events = runtime.telemetry.open(params.id, query);
      return {
        status: 200,
        events: eventStreamBody(events, { idOf: (envelope) => String(envelope.seq) }),
      };
    },
  };
}
