import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, openAsBlob, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { createIdGenerator, notFound, ServiceError } from '@x/service-kernel';
import { formatTimestamp, MAX_REPLAY_DURATION_SECONDS, type Replay } from '@x/types';
import type { Logger } from 'pino';
import type { ChromiumBrowser } from '../browsers/chromium-browser.js';

/** A recording in progress. */
interface Recording {
  record: Replay;
  readonly browserId: string;
  readonly file: string;
  readonly ffmpeg: ChildProcess;
  readonly stopScreencast: () => Promise<void>;
  readonly timers: ReturnType<typeof setTimeout>[];
  /** Resolves once the video is finalized. */
  stopping: Promise<Replay> | undefined;
}

const nextId = createIdGenerator();

/**
 * Recordings of browsers' screens: DevTools screencast frames, repeated at the asked framerate so
 * the video's duration is the recording's, piped into ffmpeg as an H.264 MP4 (faststart). One
 * recording per browser; stopping finalizes the file before it answers; videos outlive their
 * browser.
 */
export class ReplayService {
  readonly #database: DatabaseSync;
  readonly #folder: string;
  readonly #ffmpeg: string | undefined;
  readonly #logger: Logger;
  readonly #recordings = new Map<string, Recording>();

  constructor(database: DatabaseSync, dataDir: string, ffmpeg: string | undefined, logger: Logger) {
    this.#database = database;
    this.#folder = join(dataDir, 'replays');
    this.#ffmpeg = ffmpeg;
    this.#logger = logger;
    if (!ffmpeg)
      logger.warn('ffmpeg is not installed: replays cannot be recorded (apt-get install ffmpeg)');
    // A recording an earlier run never finished has no playable file: it ends where it was.
    for (const row of database.prepare('SELECT id, record FROM replays').all() as {
      id: string;
      record: string;
    }[]) {
      const record = JSON.parse(row.record) as Replay;
      if (!record.finished_at) this.#save({ ...record, finished_at: record.started_at }, row.id);
    }
  }

  /** Starts recording a browser; 409 while it records already, 503 without ffmpeg. */
  async start(
    browserId: string,
    chromium: ChromiumBrowser,
    framerate: number,
    maxDurationSeconds: number | undefined,
  ): Promise<Replay> {
    if (!this.#ffmpeg)
      throw new ServiceError(
        'unavailable',
        'Replays need ffmpeg, which is not installed on this server (apt-get install ffmpeg).',
      );
    for (const recording of this.#recordings.values()) {
      if (recording.browserId === browserId) {
        throw new ServiceError(
          'conflict',
          `Browser "${browserId}" is already recording (replay "${recording.record.replay_id}").`,
        );
      }
    }
    const id = nextId('rp');
    mkdirSync(join(this.#folder, browserId), { recursive: true, mode: 0o700 });
    const file = join(this.#folder, browserId, `${id}.mp4`);
    const ffmpeg = spawn(
      this.#ffmpeg,
      [
        '-loglevel',
        'error',
        '-f',
        'image2pipe',
        '-framerate',
        String(framerate),
        '-c:v',
        'mjpeg',
        '-i',
        '-',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-pix_fmt',
        'yuv420p',
        '-vf',
        'scale=trunc(iw/2)*2:trunc(ih/2)*2',
        '-movflags',
        '+faststart',
        '-y',
        file,
      ],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    ffmpeg.stdin?.on('error', () => undefined);
    // A first frame now: a recording stopped at once still makes a playable video.
    let latest: Buffer | undefined = await chromium.jpeg().catch(() => undefined);
    if (latest) ffmpeg.stdin?.write(latest);
    const stopScreencast = await chromium.startScreencast((jpeg) => {
      latest = jpeg;
    });
    // The screencast sends a frame only when the page changes: the latest one is written at the
    // framerate, so the video lasts as long as the recording did.
    const ticker = setInterval(() => {
      if (latest && ffmpeg.stdin?.writable) ffmpeg.stdin.write(latest);
    }, 1000 / framerate);
    const record: Replay = { replay_id: id, started_at: formatTimestamp(new Date()) };
    const recording: Recording = {
      record,
      browserId,
      file,
      ffmpeg,
      stopScreencast,
      timers: [ticker],
      stopping: undefined,
    };
    const limit = setTimeout(
      () => void this.#finish(recording),
      (maxDurationSeconds ?? MAX_REPLAY_DURATION_SECONDS) * 1000,
    );
    limit.unref();
    recording.timers.push(limit);
    this.#recordings.set(id, recording);
    this.#save(record, id, browserId, file);
    return record;
  }

  /** Stops a recording and finalizes its video; a stopped one is answered again as it is. */
  async stop(browserId: string, replayId: string): Promise<Replay> {
    const recording = this.#recordings.get(replayId);
    if (recording && recording.browserId === browserId) return this.#finish(recording);
    return this.get(browserId, replayId);
  }

  /** Finishes every recording (shutdown), so each video is playable. */
  async close(): Promise<void> {
    await Promise.all([...this.#recordings.values()].map((recording) => this.#finish(recording)));
  }

  /** Stops the browser's recording, if any (it is being deleted); the video is kept. */
  async stopAll(browserId: string): Promise<void> {
    await Promise.all(
      [...this.#recordings.values()]
        .filter((recording) => recording.browserId === browserId)
        .map((recording) => this.#finish(recording)),
    );
  }

  /** A replay of a browser, finished or not; 404 when there is none. */
  get(browserId: string, replayId: string): Replay {
    const row = this.#database
      .prepare('SELECT record FROM replays WHERE id = ? AND browser_id = ?')
      .get(replayId, browserId) as { record: string } | undefined;
    if (!row) throw notFound('replay', replayId);
    return JSON.parse(row.record) as Replay;
  }

  /** A browser's replays, oldest first. */
  list(browserId: string): Replay[] {
    const rows = this.#database
      .prepare('SELECT record FROM replays WHERE browser_id = ? ORDER BY rowid')
      .all(browserId) as { record: string }[];
    return rows.map((row) => JSON.parse(row.record) as Replay);
  }

  /** The video (read from disk as it is sent), or the replay while it is still recording. */
  async download(
    browserId: string,
    replayId: string,
  ): Promise<{ video: Blob } | { recording: Replay }> {
    const replay = this.get(browserId, replayId);
    if (!replay.finished_at) return { recording: replay };
    const row = this.#database.prepare('SELECT file FROM replays WHERE id = ?').get(replayId) as {
      file: string;
    };
    if (!existsSync(row.file)) throw notFound('replay video', replayId);
    return { video: await openAsBlob(row.file, { type: 'video/mp4' }) };
  }

  #finish(recording: Recording): Promise<Replay> {
    recording.stopping ??= (async () => {
      for (const timer of recording.timers) clearTimeout(timer);
      await recording.stopScreencast();
      const exited = once(recording.ffmpeg, 'exit');
      recording.ffmpeg.stdin?.end();
      const [code] = (await exited) as [number | null];
      if (code !== 0) {
        this.#logger.error(
          { replay: recording.record.replay_id, code },
          'ffmpeg failed to finalize a replay',
        );
        rmSync(recording.file, { force: true });
      }
      const finished: Replay = { ...recording.record, finished_at: formatTimestamp(new Date()) };
      this.#recordings.delete(recording.record.replay_id);
      this.#save(finished, finished.replay_id);
      return finished;
    })();
    return recording.stopping;
  }

  #save(record: Replay, id: string, browserId?: string, file?: string): void {
    if (browserId !== undefined && file !== undefined) {
      this.#database
        .prepare('INSERT INTO replays (id, browser_id, record, file) VALUES (?, ?, ?, ?)')
        .run(id, browserId, JSON.stringify(record), file);
    } else {
      this.#database
        .prepare('UPDATE replays SET record = ? WHERE id = ?')
        .run(JSON.stringify(record), id);
    }
  }
}
