import type { BrowserInstance } from '../engines.js';
import { eventStreamBody } from '../event-stream.js';
import type { HandlerGroup } from '../handler-group.js';

/** The log operation over the service model: a file's lines, or the session's own log. */
export function logHandlers<I extends BrowserInstance>(): HandlerGroup<I, 'browsers.logs.stream'> {
  return {
    'browsers.logs.stream': async ({ runtime, params, query }) => {
      const lines = await runtime.logs.open(params.id, query);
      return { status: 200, events: eventStreamBody(lines) };
    },
  };
}
