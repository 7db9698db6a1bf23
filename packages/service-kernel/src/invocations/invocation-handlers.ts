import type { BrowserInstance } from '../engines.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'invocations.create'
  | 'invocations.list'
  | 'invocations.get'
  | 'invocations.update'
  | 'invocations.listBrowsers'
  | 'invocations.deleteBrowsers';

/** The invocation operations over the service model. */
export function invocationHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'invocations.create': async ({ runtime, body }) => ({
      status: 201,
      json: await runtime.invocations.create(body),
    }),
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
