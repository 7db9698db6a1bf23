import { notFound, ServiceError } from '@x/service-kernel';
import { formatTimestamp, HEADERS } from '@x/types';
import { replayVideo } from './assets-replay.js';
import { findBrowser } from './browsers.js';
import type { HandlerTable } from './handler-types.js';
import type { FakeRuntime } from './runtime.js';
import type { FakeBrowser, FakeReplay } from './state.js';

/** Stops recordings that reached their `max_duration_in_seconds`. */
export function finishExpiredReplays(runtime: FakeRuntime, browser: FakeBrowser): void {
  const now = runtime.clock().getTime();
  for (const replay of browser.replays.values()) {
    if (replay.record.finished_at || replay.maxDurationMs === undefined) continue;
    const endsAt = Date.parse(replay.record.started_at) + replay.maxDurationMs;
    if (now >= endsAt) replay.record.finished_at = formatTimestamp(new Date(endsAt));
  }
}

function findReplay(runtime: FakeRuntime, browserId: string, replayId: string): FakeReplay {
  const browser = findBrowser(runtime, browserId, true);
  finishExpiredReplays(runtime, browser);
  const replay = browser.replays.get(replayId);
  if (!replay) throw notFound('replay', replayId);
  return replay;
}

/** Handlers of the replay operations. */
export const replayHandlers: Pick<
  HandlerTable,
  | 'browsers.replays.start'
  | 'browsers.replays.list'
  | 'browsers.replays.download'
  | 'browsers.replays.stop'
> = {
  'browsers.replays.start': ({ runtime, params, body }) => {
    const browser = findBrowser(runtime, params.id as string);
    finishExpiredReplays(runtime, browser);
    for (const replay of browser.replays.values()) {
      if (!replay.record.finished_at) {
        throw new ServiceError(
          'conflict',
          `Browser "${params.id}" is already recording (replay "${replay.record.replay_id}").`,
        );
      }
    }
    const replay: FakeReplay = {
      record: { replay_id: runtime.nextId('rp'), started_at: formatTimestamp(runtime.clock()) },
      maxDurationMs:
        body.max_duration_in_seconds === undefined
          ? undefined
          : body.max_duration_in_seconds * 1000,
    };
    browser.replays.set(replay.record.replay_id, replay);
    return { status: 201, json: replay.record };
  },
  'browsers.replays.list': ({ runtime, params }) => {
    const browser = findBrowser(runtime, params.id as string, true);
    finishExpiredReplays(runtime, browser);
    return { status: 200, json: [...browser.replays.values()].map((replay) => replay.record) };
  },
  'browsers.replays.download': ({ runtime, params }) => {
    const replay = findReplay(runtime, params.id as string, params.replay_id as string);
    if (!replay.record.finished_at) {
      return { status: 202, json: replay.record, headers: { [HEADERS.retryAfter]: '1' } };
    }
    return { status: 200, bytes: replayVideo(), contentType: 'video/mp4' };
  },
  'browsers.replays.stop': ({ runtime, params }) => {
    const replay = findReplay(runtime, params.id as string, params.replay_id as string);
    // Stopping a stopped recording answers with it again.
    replay.record.finished_at ??= formatTimestamp(runtime.clock());
    return { status: 200, json: replay.record };
  },
};
