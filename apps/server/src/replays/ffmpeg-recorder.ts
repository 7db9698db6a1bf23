import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, openAsBlob, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Recorder, type RecordingHandle, refusals } from '@x/service-kernel';
import type { ChromiumInstance } from '../browsers/chromium-engine.js';

/** ffmpeg's arguments: JPEG frames in at `framerate`, an H.264 MP4 out (faststart). */
function encoderArgs(framerate: number, file: string): string[] {
  return [
    ...['-loglevel', 'error', '-f', 'image2pipe', '-framerate', String(framerate)],
    ...['-c:v', 'mjpeg', '-i', '-', '-c:v', 'libx264', '-preset', 'veryfast'],
    ...['-pix_fmt', 'yuv420p', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2'],
    ...['-movflags', '+faststart', '-y', file],
  ];
}

/**
 * Records browsers' screens: DevTools screencast frames, the latest repeated at the framerate
 * so the video lasts as long as the recording did, piped into ffmpeg. Videos are kept under the
 * data directory (`replays/<browser>/<replay>.mp4`) and outlive their browser.
 */
export class FfmpegRecorder implements Recorder<ChromiumInstance> {
  readonly #folder: string;
  readonly #ffmpeg: string | undefined;

  constructor(dataDir: string, ffmpeg: string | undefined) {
    this.#folder = join(dataDir, 'replays');
    this.#ffmpeg = ffmpeg;
  }

  assertAvailable(): void {
    if (!this.#ffmpeg) throw refusals.missingTool('Replays', 'ffmpeg', 'ffmpeg');
  }

  #file(browserId: string, replayId: string): string {
    return join(this.#folder, browserId, `${replayId}.mp4`);
  }

  async start(
    instance: ChromiumInstance,
    spec: { browserId: string; replayId: string; framerate: number },
  ): Promise<RecordingHandle> {
    const { chromium } = instance;
    mkdirSync(join(this.#folder, spec.browserId), { recursive: true, mode: 0o700 });
    const file = this.#file(spec.browserId, spec.replayId);
    const ffmpeg: ChildProcess = spawn(this.#ffmpeg as string, encoderArgs(spec.framerate, file), {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    // A write after ffmpeg ended fails here; the recording's end reports what went wrong.
    ffmpeg.stdin?.on('error', () => undefined);
    // A first frame now: a recording stopped at once still makes a playable video.
    let latest: Buffer | undefined = await chromium.jpeg().catch(() => undefined);
    if (latest) ffmpeg.stdin?.write(latest);
    const stopScreencast = await chromium.startScreencast((jpeg) => {
      latest = jpeg;
    });
    const ticker = setInterval(() => {
      if (latest && ffmpeg.stdin?.writable) ffmpeg.stdin.write(latest);
    }, 1000 / spec.framerate);
    return {
      finish: async () => {
        clearInterval(ticker);
        await stopScreencast();
        const exited = once(ffmpeg, 'exit');
        ffmpeg.stdin?.end();
        const [code] = (await exited) as [number | null];
        if (code !== 0) {
          rmSync(file, { force: true });
          throw new Error(`ffmpeg exited with ${code} while finalizing ${spec.replayId}`);
        }
      },
    };
  }

  async video(browserId: string, replayId: string): Promise<Blob | undefined> {
    const file = this.#file(browserId, replayId);
    if (!existsSync(file)) return undefined;
    return openAsBlob(file, { type: 'video/mp4' });
  }
}
