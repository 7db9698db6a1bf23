import { formatTimestamp } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { eventStreamBody } from '../event-stream.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'invocations.create'
  | 'invocations.list'
  | 'invocations.get'
  | 'invocations.update'
  | 'invocations.listBrowsers'
  | 'invocations.deleteBrowsers'
  | 'invocations.events';

/** The invocation operations over the service model. */
export function invocationHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'invocations.create': async ({ runtime, body }) => {
      const { isSync, invocation } = await runtime.invocations.invoke(body);
      return { status: isSync ? 200 : 202, json: invocation };
    },
    'invocations.events': async ({ runtime, params }) => {
      const id = params.id;
      // Unknown invocations are 404 before the stream starts.
      await runtime.invocations.get(id);
      return {
        status: 200,
        events: eventStreamBody((signal) => runtime.invocations.events(id, signal), {
          heartbeat: () => ({
            event: 'sse_heartbeat' as const,
            timestamp: formatTimestamp(runtime.context.clock()),
          }),
        }),
      };
    },
    'invocations.list': ({ runtime, query }) => pageAnswer(runtime.invocations.page(query)),
    'invocations.get': async ({ runtime, params }) => ({
      status: 200,
      json: await runtime.invocations.get(params.id),
    }),
    'invocations.update': async ({ runtime, params, body }) => ({
      status: 200,
      json: await runtime.invocations.update(params.id, body),
    }),
    'invocations.listBrowsers': async ({ runtime, params }) => {
      const invocation = await runtime.invocations.get(params.id);
      return { status: 200, json: { browsers: runtime.browsers.list(invocation.id) } };
    },
    'invocations.deleteBrowsers': async ({ runtime, params }) => {
      const invocation = await runtime.invocations.get(params.id);
      await runtime.invocations.endBrowsersOf(invocation.id);
      return { status: 204 };
    },
  };
}
