import type { BrowserInstance } from '../engines.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';
import { loadExtensions } from './extension-loading.js';

type Operations =
  | 'extensions.upload'
  | 'extensions.list'
  | 'extensions.download'
  | 'extensions.metadata'
  | 'browsers.loadExtensions'
  | 'extensions.delete';

/** The extension operations over the service model. */
export function extensionHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'extensions.upload': async ({ runtime, body }) => ({
      status: 201,
      json: await runtime.extensions.upload(body.file, body.name),
    }),
    'extensions.list': ({ runtime, query }) => pageAnswer(runtime.extensions.page(query)),
    'extensions.download': async ({ runtime, params }) => ({
      status: 200,
      bytes: await runtime.extensions.download(params.id_or_name),
      contentType: 'application/zip',
    }),
    'extensions.metadata': async ({ runtime, params }) => ({
      status: 200,
      json: (await runtime.extensions.find(params.id_or_name)).record,
    }),
    'browsers.loadExtensions': async ({ runtime, params, body }) => ({
      status: 200,
      json: await loadExtensions(runtime.browsers, runtime.files, params.id, body),
    }),
    'extensions.delete': async ({ runtime, params }) => {
      await runtime.extensions.delete(params.id_or_name);
      return { status: 204 };
    },
  };
}
