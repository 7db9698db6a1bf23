import { z } from 'zod';
import { defined, jsonResult, refuseOthers, required, withLinks } from '../results.js';
import { defineTool, sessionIdInput } from '../tool.js';

const ACTIONS = ['start', 'stop', 'list'] as const;

/** `manage_replays`: video recordings of a browser's screen. */
export const manageReplays = defineTool({
  name: 'manage_replays',
  title: 'Manage replays',
  description: [
    "Records a browser's screen as a video, to show a person what happened or to look back at a run.",
    '- start: starts recording `session_id` (optional `framerate`, `max_duration_in_seconds`); returns the replay with its `replay_id`.',
    '- stop: stops `replay_id` of `session_id` and finishes its video; the replay then has a `replay_view_url` to watch it.',
    '- list: the replays of `session_id`, recording or done.',
    'A recording also stops when its browser is deleted.',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  input: {
    action: z.enum(ACTIONS).describe('what to do: start, stop or list'),
    session_id: sessionIdInput,
    replay_id: z.string().optional().describe('stop: the replay to stop'),
    framerate: z.number().int().optional().describe('start: frames per second'),
    max_duration_in_seconds: z
      .number()
      .int()
      .optional()
      .describe('start: stops by itself after this long'),
  },
  async run(args, { client, call, maxTextChars }) {
    const { action, session_id: id, replay_id, framerate, max_duration_in_seconds } = args;
    switch (action) {
      case 'start':
        refuseOthers({ replay_id }, action);
        return jsonResult(
          await client.browsers.replays.start(
            { id, ...defined({ framerate, max_duration_in_seconds }) },
            call,
          ),
          maxTextChars,
        );
      case 'stop': {
        refuseOthers({ framerate, max_duration_in_seconds }, action);
        const replay = required(args, 'replay_id', action);
        await client.browsers.replays.stop({ id, replay_id: replay }, call);
        const replays = await client.browsers.replays.list({ id }, call);
        const stopped = replays.items.find((each) => each.replay_id === replay);
        return withLinks(
          jsonResult(stopped ?? { stopped: replay }, maxTextChars),
          replayLinks(stopped ? [stopped] : []),
        );
      }
      case 'list': {
        refuseOthers({ replay_id, framerate, max_duration_in_seconds }, action);
        const page = await client.browsers.replays.list({ id }, call);
        return withLinks(
          jsonResult({ items: page.items, has_more: page.hasMore }, maxTextChars),
          replayLinks(page.items),
        );
      }
    }
  },
});

/** Each finished replay's player, as a resource a client can open. */
function replayLinks(replays: readonly { replay_id: string; replay_view_url?: string | null }[]) {
  return replays.flatMap((replay) =>
    replay.replay_view_url
      ? [
          {
            uri: replay.replay_view_url,
            name: `Replay ${replay.replay_id}`,
            description: 'A page that plays the recording, with seeking and speed.',
          },
        ]
      : [],
  );
}
