import type { BrowserInstance } from '../engines.js';
import { eventStreamBody } from '../event-stream.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';
import { authContextOf } from './auth-context.js';

type Operations =
  | 'auth.connections.create'
  | 'auth.connections.list'
  | 'auth.connections.get'
  | 'auth.connections.update'
  | 'auth.connections.delete'
  | 'auth.connections.login'
  | 'auth.connections.submit'
  | 'auth.connections.events'
  | 'auth.connections.timeline'
  | 'auth.context.get';

/** The auth connection operations over the service model, and who the caller is. */
export function authHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'auth.connections.create': async ({ runtime, body, origin, caller }) => ({
      status: 201,
      json: await runtime.auth.create(body, origin, caller),
    }),
    'auth.connections.list': ({ runtime, query }) => pageAnswer(runtime.auth.list(query)),
    'auth.connections.get': async ({ runtime, params }) => ({
      status: 200,
      json: await runtime.auth.get(params.id),
    }),
    'auth.connections.update': async ({ runtime, params, body, caller }) => ({
      status: 200,
      json: await runtime.auth.update(params.id, body, caller),
    }),
    'auth.connections.delete': async ({ runtime, params }) => {
      await runtime.auth.delete(params.id);
      return { status: 204 };
    },
    'auth.connections.login': async ({ runtime, params, body, origin }) => ({
      status: 200,
      json: await runtime.auth.login(params.id, body, origin),
    }),
    'auth.connections.submit': async ({ runtime, params, body }) => ({
      status: 200,
      json: await runtime.auth.submit(params.id, body),
    }),
    'auth.connections.events': async ({ runtime, params }) => {
      const id = params.id;
      // Unknown connections are 404 before the stream starts.
      await runtime.auth.get(id);
      return { status: 200, events: eventStreamBody((signal) => runtime.auth.events(id, signal)) };
    },
    'auth.connections.timeline': ({ runtime, params, query }) =>
      pageAnswer(runtime.auth.timeline(params.id, query)),
    'auth.context.get': ({ caller, project }) => ({
      status: 200,
      json: authContextOf(caller, project),
    }),
  };
}
