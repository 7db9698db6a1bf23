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
import type { ChromiumInstance } from '../browsers/chromium-instance.js';
import type { BlobStore } from '../store/blob-store.js';
import { assertFreeSpace, RECORDING_FREE_BYTES } from '../system/free-space.js';
import { type RecordingSource, recordScreen } from './recording-source.js';

/** Longest a still screen goes without its picture written again (see `write`). */
const KEEPALIVE_MS = 1000;

/** Longest ffmpeg may take to finalize a video once its input ends; then it is killed. */
const FINALIZE_TIMEOUT_MS = 15_000;

/**
 * ffmpeg's arguments: JPEG frames in as they come, each stamped with the wall clock when it
 * arrives, an H.264 MP4 out at a variable frame rate. Only changes are sent (a still page sends
 * nothing), so nothing is decoded or encoded for time in which nothing happened; the encoder holds
 * each picture until the next, so the video lasts as long as the recording did. The MP4 is
 * fragmented (a fragment every second, a keyframe at least every two seconds, flushed as
 * written), so the file on disk is playable at every moment: a recording whose ffmpeg dies, or
 * whose server crashes, keeps the video up to then.
 */
function encoderArgs(file: string): string[] {
  return [
    // The input's codec is given: no seconds spent probing before the first frame.
    ...['-loglevel', 'error', '-probesize', '32', '-analyzeduration', '0'],
    // Multipart JPEG: each part says its length, so a frame is read (and stamped) as it arrives,
    // not when the next one begins, as a bare stream of JPEGs would be.
    ...['-use_wallclock_as_timestamps', '1', '-f', 'mpjpeg', '-i', '-'],
    // The cheapest preset: screens are flat colour and text, which it still compresses well.
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-fps_mode', 'vfr'],
    ...['-force_key_frames', 'expr:gte(t,n_forced*2)'],
    ...['-pix_fmt', 'yuv420p', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2'],
    ...['-movflags', '+frag_keyframe+empty_moov+default_base_moof'],
    ...['-frag_duration', '1000000', '-flush_packets', '1', '-y', file],
  ];
}

/** Longest ffmpeg may take to write a video's header before the recording goes on without it. */
const HEADER_WAIT_MS = 10_000;

/**
 * Resolves once `file` has its header (ffmpeg writes it after it decoded the first picture), or
 * ffmpeg ended, or `HEADER_WAIT_MS` passed: a recording whose ffmpeg fails says so at its end.
 */
async function untilHeaderWritten(file: string, exited: Promise<unknown>): Promise<void> {
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });
  const deadline = Date.now() + HEADER_WAIT_MS;
  while (!hasExited && Date.now() < deadline) {
    if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A frame as one part of the multipart stream ffmpeg reads. */
function framePart(jpeg: Uint8Array): Buffer {
  const head = `--xbframe\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.byteLength}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), jpeg, Buffer.from('\r\n')]);
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

/** A video's key in the blob store. */
const blobKey = (browserId: string, replayId: string) => `replays/${browserId}/${replayId}.mp4`;

/**
 * Records browsers' screens: the session's pictures as they change, at most `framerate` a second
 * (from its shared screen stream, or screenshots while an unwatched page animates: see
 * recordScreen), piped into ffmpeg with their arrival times. Videos are kept under the
 * data directory (`replays/<browser>/<replay>.mp4`) and outlive their browser.
 */
export class FfmpegRecorder implements Recorder<ChromiumInstance> {
  readonly #folder: string;
  readonly #ffmpeg: string | undefined;
  readonly #blobs: { readonly store: BlobStore; unstored(error: unknown): void } | undefined;

  /**
   * With a blob store (PostgreSQL) each finished video is kept there too, and a video this
   * server does not have on its disk is fetched from there when asked for. A video the store
   * cannot take when it is finished stays on this disk (served from here), and `unstored` hears.
   */
  constructor(
    dataDir: string,
    ffmpeg: string | undefined,
    blobs?: { readonly store: BlobStore; unstored(error: unknown): void },
  ) {
    this.#folder = join(dataDir, 'replays');
    this.#ffmpeg = ffmpeg;
    this.#blobs = blobs;
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
    // The screen as it is now, before ffmpeg starts: a recording stopped at once still makes a
    // playable video, and nothing is spawned for a browser that does not answer.
    const first = await chromium.jpeg();
    const ffmpeg: ChildProcess = spawn(this.#ffmpeg as string, encoderArgs(file), {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    // What ffmpeg says when it fails, its last 2 KB: the error names it.
    let said = '';
    ffmpeg.stderr?.setEncoding('utf8').on('data', (text: string) => {
      said = (said + text).slice(-2048);
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
    let latest: Uint8Array = first;
    let keepalive: ReturnType<typeof setTimeout> | undefined;
    // A frame is written only when ffmpeg keeps up: a stalled encoder is not fed a growing buffer.
    const write = (jpeg: Uint8Array) => {
      const stdin = ffmpeg.stdin;
      if (!stdin?.writable) return;
      if (stdin.writableLength < 4 * jpeg.byteLength) stdin.write(framePart(jpeg));
      // A still screen sends nothing; its picture goes in again once a second all the same, so
      // the fragment on disk closes and a recording whose ffmpeg dies keeps its video to then.
      clearTimeout(keepalive);
      keepalive = setTimeout(() => write(jpeg), KEEPALIVE_MS);
    };
    write(first);
    // Started once ffmpeg has read the first picture and written the video's header: each
    // picture is stamped when ffmpeg reads it, so the video's time begins there, and the replay's
    // (its started_at) with it, however long ffmpeg took to start on a busy host.
    await untilHeaderWritten(file, exited);
    // The session's pictures as they change, at most `framerate` a second (see recordScreen).
    let source: RecordingSource;
    try {
      source = await recordScreen(chromium, spec.framerate, (jpeg) => {
        latest = jpeg;
        write(jpeg);
      });
    } catch (error) {
      ffmpeg.kill('SIGKILL');
      await exited;
      rmSync(file, { force: true });
      throw error;
    }
    return {
      finish: async () => {
        isFinishing = true;
        await source.stop().catch(() => undefined); // The browser may be gone already.
        clearTimeout(keepalive);
        // The last picture once more, stamped now: the video lasts until the recording stopped.
        if (ffmpeg.stdin?.writable) ffmpeg.stdin.write(framePart(latest));
        ffmpeg.stdin?.end();
        const killer = setTimeout(() => ffmpeg.kill('SIGKILL'), FINALIZE_TIMEOUT_MS);
        const code = await exited;
        clearTimeout(killer);
        // ffmpeg died or was killed: the fragments it wrote are still a playable video.
        if (code === 0 || hasVideo(file)) {
          await this.#blobs?.store
            .put(blobKey(spec.browserId, spec.replayId), file)
            .catch((error: unknown) => this.#blobs?.unstored(error));
          return;
        }
        rmSync(file, { force: true });
        throw new Error(
          `ffmpeg exited with ${code} before writing ${spec.replayId}: ${said.trim() || 'it said nothing'}`,
        );
      },
    };
  }

  async video(browserId: string, replayId: string): Promise<Blob | undefined> {
    const file = this.#file(browserId, replayId);
    if (!existsSync(file)) {
      if (!this.#blobs) return undefined;
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      if (!(await this.#blobs.store.fetch(blobKey(browserId, replayId), file))) return undefined;
    }
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
