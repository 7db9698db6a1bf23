import type { BrowserInstance } from '../engines.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'proxies.create'
  | 'proxies.list'
  | 'proxies.get'
  | 'proxies.update'
  | 'proxies.delete'
  | 'proxies.check';

/** The proxy operations over the service model. */
export function proxyHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'proxies.create': async ({ runtime, body }) => ({
      status: 201,
      json: await runtime.proxies.create(body),
    }),
    'proxies.list': ({ runtime, query }) => pageAnswer(runtime.proxies.list(query)),
    'proxies.get': async ({ runtime, params }) => ({
      status: 200,
      json: await runtime.proxies.get(params.id),
    }),
    'proxies.update': async ({ runtime, params, body }) => ({
      status: 200,
      json: await runtime.proxies.update(params.id, body),
    }),
    'proxies.delete': async ({ runtime, params, query }) => {
      await runtime.proxies.delete(params.id, query.force);
      return { status: 204 };
    },
    'proxies.check': async ({ runtime, params }) => ({
      status: 200,
      json: await runtime.proxies.check(params.id),
    }),
  };
}
