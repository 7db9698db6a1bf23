import type { BrowserInstance } from '../engines.js';
import { eventStreamBody } from '../event-stream.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations = 'browsers.telemetry.events' | 'browsers.telemetry.stream';

/** The telemetry operations over the service model: a session's events, paged or streamed. */
export function telemetryHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
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
