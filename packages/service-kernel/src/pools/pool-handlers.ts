import type { BrowserInstance } from '../engines.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'browserPools.create'
  | 'browserPools.list'
  | 'browserPools.get'
  | 'browserPools.update'
  | 'browserPools.delete'
  | 'browserPools.acquire'
  | 'browserPools.release'
  | 'browserPools.flush';

/** The browser pool operations over the service model. */
export function poolHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'browserPools.create': async ({ runtime, body, origin }) => ({
      status: 201,
      json: await runtime.pools.create(body, origin),
    }),
    'browserPools.list': ({ runtime, query }) => pageAnswer(runtime.pools.page(query)),
    'browserPools.get': ({ runtime, params }) => ({
      status: 200,
      json: runtime.pools.get(params.id_or_name),
    }),
    'browserPools.update': async ({ runtime, params, body, origin }) => ({
      status: 200,
      json: await runtime.pools.update(params.id_or_name, body, origin),
    }),
    'browserPools.delete': async ({ runtime, params, query }) => {
      await runtime.pools.delete(params.id_or_name, query.force === true);
      return { status: 204 };
    },
    'browserPools.acquire': async ({ runtime, params, body, signal, receivedBy }) => {
      const session = await runtime.pools.acquire(
        params.id_or_name,
        body.acquire_timeout_seconds,
        signal,
        receivedBy,
      );
      return session ? { status: 200, json: session } : { status: 204 };
    },
    'browserPools.release': async ({ runtime, params, body }) => {
      await runtime.pools.release(params.id_or_name, body.session_id, body.reuse);
      return { status: 204 };
    },
    'browserPools.flush': async ({ runtime, params }) => {
      await runtime.pools.flush(params.id_or_name);
      return { status: 204 };
    },
  };
}
