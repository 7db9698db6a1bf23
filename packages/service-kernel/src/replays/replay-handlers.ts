import { HEADERS } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'browsers.replays.start'
  | 'browsers.replays.list'
  | 'browsers.replays.download'
  | 'browsers.replays.stop';

/** The replay operations over the service model. */
export function replayHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'browsers.replays.start': async ({ runtime, params, body }) => ({
      status: 201,
      json: await runtime.replays.start(params.id, body.framerate, body.max_duration_in_seconds),
    }),
    'browsers.replays.list': async ({ runtime, params, query, origin }) => {
      const page = await runtime.replays.page(params.id, query);
      const items = page.items.map((replay) => runtime.replays.answered(params.id, replay, origin));
      return pageAnswer({ ...page, items });
    },
    'browsers.replays.download': async ({ runtime, params }) => {
      const found = await runtime.replays.download(params.id, params.replay_id);
      if ('recording' in found)
        return { status: 202, json: found.recording, headers: { [HEADERS.retryAfter]: '1' } };
      return { status: 200, bytes: found.video, contentType: 'video/mp4' };
    },
    'browsers.replays.stop': async ({ runtime, params, origin }) => ({
      status: 200,
      json: runtime.replays.answered(
        params.id,
        await runtime.replays.stop(params.id, params.replay_id),
        origin,
      ),
    }),
  };
}
