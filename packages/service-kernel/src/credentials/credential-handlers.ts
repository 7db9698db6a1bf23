import type { BrowserInstance } from '../engines.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'credentials.create'
  | 'credentials.list'
  | 'credentials.get'
  | 'credentials.update'
  | 'credentials.delete'
  | 'credentials.totpCode';

/** The credential operations over the service model. */
export function credentialHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'credentials.create': async ({ runtime, body }) => ({
      status: 201,
      json: await runtime.credentials.create(body),
    }),
    'credentials.list': ({ runtime, query }) => pageAnswer(runtime.credentials.list(query)),
    'credentials.get': async ({ runtime, params }) => ({
      status: 200,
      json: await runtime.credentials.get(params.id_or_name),
    }),
    'credentials.update': async ({ runtime, params, body }) => ({
      status: 200,
      json: await runtime.credentials.update(params.id_or_name, body),
    }),
    'credentials.delete': async ({ runtime, params }) => {
      await runtime.credentials.delete(params.id_or_name);
      return { status: 204 };
    },
    'credentials.totpCode': async ({ runtime, params }) => ({
      status: 200,
      json: await runtime.credentials.totpCode(params.id_or_name),
    }),
  };
}
