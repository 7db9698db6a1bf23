import type { BrowserInstance } from '../engines.js';
import { eventStreamBody } from '../event-stream.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations = 'browsers.fs.watch.start' | 'browsers.fs.watch.events' | 'browsers.fs.watch.stop';

/** The filesystem watch operations over the service model. */
export function watchHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'browsers.fs.watch.start': async ({ runtime, params, body }) => ({
      status: 201,
      json: await runtime.watches.start(params.id, body.path, body.recursive),
    }),
    'browsers.fs.watch.events': ({ runtime, params }) => {
      const watch = runtime.watches.find(params.id, params.watch_id);
      return { status: 200, events: eventStreamBody((signal) => watch.events.read(signal)) };
    },
    'browsers.fs.watch.stop': ({ runtime, params }) => {
      runtime.watches.stop(params.id, params.watch_id);
      return { status: 204 };
    },
  };
}
