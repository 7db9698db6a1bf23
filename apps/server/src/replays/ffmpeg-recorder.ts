import { type ChildProcess, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openAsBlob,
  openSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { type Recorder, type RecordingHandle, refusals } from '@x/service-kernel';
import type { ChromiumInstance } from '../browsers/chromium-engine.js';
import { assertFreeSpace, RECORDING_FREE_BYTES } from '../system/free-space.js';

/** Longest ffmpeg may take to finalize a video once its input ends; then it is killed. */
const FINALIZE_TIMEOUT_MS = 15_000;

/**
 * ffmpeg's arguments: JPEG frames in at `framerate`, an H.264 MP4 out. The MP4 is fragmented (a
 * fragment every second, a keyframe every two, flushed as written), so the file on disk is
 * playable at every moment: a recording whose ffmpeg dies, or whose server crashes, keeps the
 * video up to then.
 */
function encoderArgs(framerate: number, file: string): string[] {
  return [
    // The input's codec and rate are given: no seconds spent probing before the first frame.
    ...['-loglevel', 'error', '-probesize', '32', '-analyzeduration', '0'],
    ...['-f', 'image2pipe', '-framerate', String(framerate), '-c:v', 'mjpeg', '-i', '-'],
    // No lookahead: each frame is encoded as it comes, so what is on disk is at most a second old.
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency'],
    ...['-g', String(Math.max(1, framerate * 2))],
    ...['-pix_fmt', 'yuv420p', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2'],
    ...['-movflags', '+frag_keyframe+empty_moov+default_base_moof'],
    ...['-frag_duration', '1000000', '-flush_packets', '1', '-y', file],
  ];
}

/**
 * Whether a video file holds at least one fragment of video (a `moof` box after the header),
 * which is what makes it playable; its first one follows the header within the first kilobytes.
 */
function hasVideo(file: string): boolean {
  if (!existsSync(file)) return false;
  const start = Buffer.alloc(64 * 1024);
  const fd = openSync(file, 'r');
  try {
    const read = readSync(fd, start, 0, start.length, 0);
    return start.subarray(0, read).includes('moof');
  } finally {
    closeSync(fd);
  }
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
    events: { ended(): void },
  ): Promise<RecordingHandle> {
    const { chromium } = instance;
    // The data directory (the replays folder may not be made yet) is on the same disk.
    assertFreeSpace(dirname(this.#folder), RECORDING_FREE_BYTES, 'record a replay');
    mkdirSync(join(this.#folder, spec.browserId), { recursive: true, mode: 0o700 });
    const file = this.#file(spec.browserId, spec.replayId);
    // The first frame and the screencast come before ffmpeg: nothing is spawned for a call that
    // fails (a browser that does not answer).
    let latest: Buffer | undefined = await chromium.jpeg().catch(() => undefined);
    const stopScreencast = await chromium.startScreencast((jpeg) => {
      latest = jpeg;
    });
    const ffmpeg: ChildProcess = spawn(this.#ffmpeg as string, encoderArgs(spec.framerate, file), {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let isFinishing = false;
    const exited = new Promise<number | null>((resolve) => {
      ffmpeg.once('exit', (code) => resolve(code));
      // It could not even start: as good as an exit that kept nothing.
      ffmpeg.once('error', () => resolve(null));
    });
    void exited.then(() => {
      if (!isFinishing) events.ended();
    });
    // A write after ffmpeg ended fails here; the recording's end reports what went wrong.
    ffmpeg.stdin?.on('error', () => undefined);
    // A first frame now: a recording stopped at once still makes a playable video.
    if (latest) ffmpeg.stdin?.write(latest);
    const ticker = setInterval(() => {
      // A frame only when ffmpeg keeps up: a stalled encoder is not fed a growing buffer.
      const stdin = ffmpeg.stdin;
      if (latest && stdin?.writable && stdin.writableLength < 4 * latest.byteLength) {
        stdin.write(latest);
      }
    }, 1000 / spec.framerate);
    return {
      finish: async () => {
        isFinishing = true;
        clearInterval(ticker);
        await stopScreencast().catch(() => undefined); // The browser may be gone already.
        ffmpeg.stdin?.end();
        const killer = setTimeout(() => ffmpeg.kill('SIGKILL'), FINALIZE_TIMEOUT_MS);
        const code = await exited;
        clearTimeout(killer);
        if (code === 0) return;
        // ffmpeg died or was killed: the fragments it wrote are still a playable video.
        if (hasVideo(file)) return;
        rmSync(file, { force: true });
        throw new Error(`ffmpeg exited with ${code} before writing ${spec.replayId}`);
      },
    };
  }

  async video(browserId: string, replayId: string): Promise<Blob | undefined> {
    const file = this.#file(browserId, replayId);
    if (!existsSync(file)) return undefined;
    return openAsBlob(file, { type: 'video/mp4' });
  }

  recordedUntil(browserId: string, replayId: string): Date | undefined {
    const file = this.#file(browserId, replayId);
    if (!hasVideo(file)) {
      rmSync(file, { force: true });
      return undefined;
    }
    return statSync(file).mtime;
  }
}
