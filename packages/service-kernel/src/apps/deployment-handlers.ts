import { formatTimestamp } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { eventStreamBody } from '../event-stream.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'deployments.create'
  | 'deployments.list'
  | 'deployments.get'
  | 'deployments.delete'
  | 'deployments.events'
  | 'apps.list';

/** The deployment and app operations over the service model. */
export function deploymentHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'deployments.create': async ({ runtime, body, caller }) => ({
      status: 201,
      json: await runtime.deployments.create(body, caller),
    }),
    'deployments.list': ({ runtime, query }) => pageAnswer(runtime.deployments.page(query)),
    'deployments.get': async ({ runtime, params }) => ({
      status: 200,
      json: await runtime.deployments.get(params.id),
    }),
    'deployments.delete': async ({ runtime, params }) => {
      await runtime.deployments.delete(params.id);
      return { status: 204 };
    },
    'deployments.events': async ({ runtime, params }) => {
      const id = params.id;
      // Unknown deployments are 404 before the stream starts.
      await runtime.deployments.get(id);
      return {
        status: 200,
        events: eventStreamBody((signal) => runtime.deployments.events(id, signal), {
          heartbeat: () => ({
            event: 'sse_heartbeat' as const,
            timestamp: formatTimestamp(runtime.context.clock()),
          }),
        }),
      };
    },
    'apps.list': ({ runtime, query }) => pageAnswer(runtime.deployments.apps(query)),
  };
}
