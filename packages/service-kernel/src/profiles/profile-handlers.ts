import { PROFILE_ARCHIVE_MEDIA_TYPES } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'profiles.create'
  | 'profiles.list'
  | 'profiles.get'
  | 'profiles.update'
  | 'profiles.delete'
  | 'profiles.download';

/** The profile operations over the service model. */
export function profileHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'profiles.create': async ({ runtime, body }) => ({
      status: 201,
      json: await runtime.profiles.create(body.name),
    }),
    'profiles.list': ({ runtime, query }) => pageAnswer(runtime.profiles.list(query)),
    'profiles.get': async ({ runtime, params }) => ({
      status: 200,
      json: await runtime.profiles.find(params.id_or_name),
    }),
    'profiles.update': async ({ runtime, params, body }) => ({
      status: 200,
      json: await runtime.profiles.rename(params.id_or_name, body.name),
    }),
    'profiles.delete': async ({ runtime, params }) => {
      await runtime.profiles.delete(params.id_or_name);
      return { status: 204 };
    },
    'profiles.download': async ({ runtime, params, query }) => ({
      status: 200,
      stream: await runtime.profiles.download(params.id_or_name, query.format),
      contentType: PROFILE_ARCHIVE_MEDIA_TYPES[query.format],
      headers: {
        'content-disposition': `attachment; filename="profile.${query.format}"`,
      },
    }),
  };
}
