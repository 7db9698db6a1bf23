import { formatTimestamp, type Replay } from '@x/types';
import type { BrowserInstance, RecordingHandle } from '../engines.js';
import type { ModelContext } from '../model-context.js';

/** A recording in progress on a browser. */
export interface RecordingEntry {
  record: Replay;
  readonly browserId: string;
  readonly handle: RecordingHandle;
  /** Frames a second it records at. */
  readonly framerate: number;
  /** When it stops by itself, epoch ms (`max_duration_in_seconds`). */
  readonly endsAt: number;
  readonly timer: ReturnType<typeof setTimeout>;
  /** Resolves once the video is finalized; set when it begins to stop. */
  stopping: Promise<Replay> | undefined;
}

/**
 * Stops a recording (once, however often asked): `finished_at` is set at once (to `at`, or now),
 * then the video is finalized; the promise resolves with the finished replay.
 */
export function finishRecording<I extends BrowserInstance>(
  context: ModelContext<I>,
  recordings: Map<string, RecordingEntry>,
  recording: RecordingEntry,
  at?: Date,
): Promise<Replay> {
  if (recording.stopping) return recording.stopping;
  clearTimeout(recording.timer);
  const finished: Replay = {
    ...recording.record,
    finished_at: formatTimestamp(at ?? context.clock()),
  };
  recording.record = finished;
  // A store that cannot take it (a full disk, a database away) does not keep the encoder
  // running: the replay stays open in the store, and the next start finishes it from its video.
  const stored = context.engines.records.replays
    .put(finished.replay_id, finished, { isOpen: false })
    .catch((error: unknown) => {
      context.log.error({ err: error, replay: finished.replay_id }, 'a finished replay not stored');
    });
  recording.stopping = recording.handle
    .finish()
    .catch((error: unknown) => {
      // The video is lost (the engine removed it); the replay stays, finished, and download says so.
      context.log.error({ err: error, replay: finished.replay_id }, 'a replay failed to finalize');
    })
    .then(async () => {
      await stored;
      recordings.delete(finished.replay_id);
      return finished;
    });
  return recording.stopping;
}

/** Stops recordings that reached their `max_duration_in_seconds` by the model's clock. */
export function finishExpiredRecordings<I extends BrowserInstance>(
  context: ModelContext<I>,
  recordings: Map<string, RecordingEntry>,
): void {
  const now = context.clock().getTime();
  for (const recording of recordings.values()) {
    if (!recording.stopping && now >= recording.endsAt)
      void finishRecording(context, recordings, recording, new Date(recording.endsAt));
  }
}
