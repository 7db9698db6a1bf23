import type { BrowserInstance } from '../engines.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';
import { assertCallerTags } from './browser-records.js';

type Operations =
  | 'browsers.create'
  | 'browsers.list'
  | 'browsers.get'
  | 'browsers.update'
  | 'browsers.delete';

/** The browser operations over the service model. */
export function browserHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'browsers.create': async ({ runtime, body, origin }) => {
      assertCallerTags(body.tags);
      const entry = await runtime.browsers.create(body, origin);
      return { status: 201, json: runtime.browsers.record(entry) };
    },
    'browsers.list': ({ runtime, query }) => pageAnswer(runtime.browsers.page(query)),
    'browsers.get': async ({ runtime, params }) => ({
      status: 200,
      json: await runtime.browsers.get(params.id),
    }),
    'browsers.update': async ({ runtime, params, body }) => {
      assertCallerTags(body.tags ?? undefined);
      return { status: 200, json: await runtime.browsers.update(params.id, body) };
    },
    'browsers.delete': async ({ runtime, params }) => {
      await runtime.browsers.delete(params.id);
      return { status: 204 };
    },
  };
}
