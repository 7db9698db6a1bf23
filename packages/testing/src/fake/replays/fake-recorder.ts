import type { Recorder } from '@x/service-kernel';
import type { FakeInstance } from '../browsers/fake-instance.js';
import { replayVideo } from './replay-video.js';

/** Records nothing: every finished replay's video is the same valid one-second MP4. */
export const fakeRecorder: Recorder<FakeInstance> = {
  assertAvailable() {
    // Nothing to install: the fake always records.
  },
  async start() {
    return { finish: async () => undefined };
  },
  async video() {
    return replayVideo();
  },
  recordedUntil() {
    return undefined; // The fake's recordings do not outlive it.
  },
};
