import {
  formatTimestamp,
  MAX_REPLAY_DURATION_SECONDS,
  type Page,
  type PageQuery,
  pageOf,
  type Replay,
} from '@x/types';
import type { BrowserEntry } from '../browsers/browser-entry.js';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { finishExpiredRecordings, finishRecording, type RecordingEntry } from './recording.js';
import { replayViewUrl } from './replay-page.js';

/** What a download finds: the video, or the replay still recording. */
export type ReplayDownload = { readonly video: Blob | Uint8Array } | { readonly recording: Replay };

/**
 * Every rule of replays: one recording at a time per browser (409), a stop at
 * `max_duration_in_seconds`, stop idempotent and answered once the video is playable, 202 while
 * recording, videos kept after their browser is deleted.
 */
export class ReplayModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
  }

  get #records() {
    return this.#context.engines.records.replays;
  }

  async start(
    browserId: string,
    framerate: number,
    maxDurationSeconds: number | undefined,
  ): Promise<Replay> {
    const browser = this.#browsers.live(browserId);
    this.#context.engines.recorder.assertAvailable();
    finishExpiredRecordings(this.#context, browser.recordings);
    const busy =
      browser.replayStarting ??
      [...browser.recordings.values()].find((r) => !r.stopping)?.record.replay_id;
    if (busy !== undefined) throw refusals.alreadyRecording(browserId, busy);
    const replayId = this.#context.nextId('rp');
    // The browser's one recording slot is held while the recorder starts: a second start is 409.
    browser.replayStarting = replayId;
    let handle: RecordingEntry['handle'];
    try {
      handle = await this.#context.engines.recorder.start(
        browser.instance,
        { browserId, replayId, framerate },
        {
          ended: () => {
            const recording = browser.recordings.get(replayId);
            if (!recording) return;
            this.#context.log.warn({ replay: replayId }, 'a recording stopped by itself');
            void finishRecording(this.#context, browser.recordings, recording);
          },
        },
      );
    } finally {
      browser.replayStarting = undefined;
    }
    if (this.#browsers.peek(browserId) !== browser) {
      // The browser ended while the recorder started: nothing of it is kept running.
      await handle.finish().catch(() => undefined);
      throw notFound('browser session', browserId);
    }
    // The video starts once the recorder has started (its first picture taken): a busy host's
    // slow start is not time the video is missing.
    const startedAt = this.#context.clock();
    const record: Replay = { replay_id: replayId, started_at: formatTimestamp(startedAt) };
    const durationMs = (maxDurationSeconds ?? MAX_REPLAY_DURATION_SECONDS) * 1000;
    const recording: RecordingEntry = {
      record,
      browserId,
      handle,
      framerate,
      endsAt: startedAt.getTime() + durationMs,
      // Node's timers may fire a millisecond before the clock reaches their time: a recording
      // stopped by its timer has lasted its whole duration, and its `finished_at` says so.
      timer: setTimeout(() => {
        const at = new Date(Math.max(this.#context.clock().getTime(), recording.endsAt));
        void finishRecording(this.#context, browser.recordings, recording, at);
      }, durationMs),
      stopping: undefined,
    };
    recording.timer.unref?.();
    browser.recordings.set(replayId, recording);
    try {
      await this.#records.put(replayId, record, { parent: browserId, isOpen: true });
    } catch (error) {
      // Not stored, not kept: the recording stops, and the caller hears why.
      browser.recordings.delete(replayId);
      clearTimeout(recording.timer);
      // The replay was never stored: a video that fails to finish loses nothing of it.
      await handle.finish().catch(() => undefined);
      throw error;
    }
    return record;
  }

  /**
   * Runs `work` (a resize) on a browser being recorded: each recording in progress ends first (its
   * video kept, as a stop keeps it), then a new one starts at the new size with the same frame
   * rate and what was left of its time, so the session is recorded on as separate replays. The
   * work runs whether or not a new recording could start; a start that fails is logged.
   */
  async recordAround(browser: BrowserEntry<I>, work: () => Promise<void>): Promise<void> {
    const browserId = browser.record.session_id;
    const now = this.#context.clock().getTime();
    const active = [...browser.recordings.values()].filter((recording) => !recording.stopping);
    await Promise.all(
      active.map((recording) => finishRecording(this.#context, browser.recordings, recording)),
    );
    await work();
    for (const recording of active) {
      const leftSeconds = Math.floor((recording.endsAt - now) / 1000);
      if (leftSeconds < 1) continue;
      try {
        const next = await this.start(browserId, recording.framerate, leftSeconds);
        this.#context.log.info(
          { session: browserId, replay: next.replay_id, after: recording.record.replay_id },
          'recording goes on at the new size',
        );
      } catch (error) {
        this.#context.log.error(
          { err: error, session: browserId, after: recording.record.replay_id },
          'a recording could not start again after a resize',
        );
      }
    }
  }

  /** A browser's replays, oldest first (a deleted browser's too). */
  async list(browserId: string): Promise<Replay[]> {
    await this.#browsers.get(browserId);
    const browser = this.#browsers.peek(browserId);
    if (browser) finishExpiredRecordings(this.#context, browser.recordings);
    return this.#records.list({ parent: browserId });
  }

  /** One page of a browser's replays, oldest first. */
  async page(browserId: string, { offset, limit }: PageQuery): Promise<Page<Replay>> {
    return pageOf(await this.list(browserId), offset, limit);
  }

  /** Stops a recording and finalizes its video; a stopped one is answered again as it is. */
  async stop(browserId: string, replayId: string): Promise<Replay> {
    const recording = await this.#recording(browserId, replayId);
    if (recording) return finishRecording(this.#context, this.#recordingsOf(browserId), recording);
    return this.#find(browserId, replayId);
  }

  /**
   * A replay as answered on `origin`: once finished, with `replay_view_url`, the page that plays
   * it, its jwt signed now for that replay only.
   */
  answered(browserId: string, replay: Replay, origin: string): Replay {
    if (!replay.finished_at) return replay;
    return {
      ...replay,
      replay_view_url: replayViewUrl(this.#context, browserId, replay.replay_id, origin),
    };
  }

  /** The video of a finished replay of that browser, for its page; undefined when there is none. */
  async finishedVideo(browserId: string, replayId: string): Promise<Blob | Uint8Array | undefined> {
    const record = await this.#records.get(replayId, browserId);
    if (!record?.finished_at) return undefined;
    const recording = await this.#recording(browserId, replayId);
    if (recording?.stopping) await recording.stopping;
    return this.#context.engines.recorder.video(browserId, replayId);
  }

  /** The video once finalized, or the replay while it records. */
  async download(browserId: string, replayId: string): Promise<ReplayDownload> {
    const recording = await this.#recording(browserId, replayId);
    if (recording && !recording.stopping) return { recording: recording.record };
    if (recording?.stopping) await recording.stopping;
    await this.#find(browserId, replayId);
    const video = await this.#context.engines.recorder.video(browserId, replayId);
    if (!video) throw notFound('replay video', replayId);
    return { video };
  }

  /**
   * Ends the recordings an earlier run left open: each ends when its video was last written (the
   * video is kept as far as it got), or where it started when there is no video of it.
   */
  async recover(): Promise<void> {
    for (const record of await this.#records.list({ isOpen: true })) {
      const browserId = await this.#records.parentOf(record.replay_id);
      // Another node's browser is recorded there: it finishes its own recordings.
      if (browserId !== undefined && !(this.#context.settings.owns?.(browserId) ?? true)) continue;
      const until =
        browserId === undefined
          ? undefined
          : this.#context.engines.recorder.recordedUntil(browserId, record.replay_id);
      const finishedAt =
        until && until.getTime() > Date.parse(record.started_at)
          ? formatTimestamp(until)
          : record.started_at;
      await this.#records.put(
        record.replay_id,
        { ...record, finished_at: finishedAt },
        { isOpen: false },
      );
    }
  }

  #recordingsOf(browserId: string): Map<string, RecordingEntry> {
    return this.#browsers.peek(browserId)?.recordings ?? new Map();
  }

  /** A recording in progress (or finishing), after those past their time are stopped. */
  async #recording(browserId: string, replayId: string): Promise<RecordingEntry | undefined> {
    await this.#browsers.get(browserId);
    const recordings = this.#recordingsOf(browserId);
    finishExpiredRecordings(this.#context, recordings);
    return recordings.get(replayId);
  }

  async #find(browserId: string, replayId: string): Promise<Replay> {
    const replay = await this.#records.get(replayId, browserId);
    if (!replay) throw notFound('replay', replayId);
    return replay;
  }
}
