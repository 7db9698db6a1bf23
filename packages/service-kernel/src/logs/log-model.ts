import type { LogEvent } from '@x/types';
import type { BrowserModel } from '../browsers/browser-model.js';
import { releasedOnAbort, takeStreamPlace } from '../browsers/stream-places.js';
import type { BrowserInstance } from '../engines.js';
import type { FileModel } from '../files/file-model.js';
import type { ModelContext } from '../model-context.js';
import { linesOf } from './log-lines.js';
import type { SessionLogProcess } from './session-log.js';

/** What a log stream asks for, checked. */
export interface LogStreamRequest {
  readonly source: 'path' | 'supervisor';
  readonly path?: string | undefined;
  readonly follow: boolean;
  readonly supervisor_process?: 'browser' | 'service' | 'chromium' | undefined;
}

/**
 * Log streams of a browser: the lines of a file on its instance (by the rules of read_file, a
 * file operation while it is open), or of its own service log. Each is bounded: a line at
 * MAX_LOG_LINE_BYTES, the streams open on one browser at BrowserLimits.logStreams (one more is
 * 429). Every stream of a browser ends when the browser does.
 */
export class LogModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;
  readonly #files: FileModel<I>;

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>, files: FileModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
    this.#files = files;
  }

  /**
   * Opens a stream: its errors (no browser, no such file, too many streams) are thrown here,
   * before the first event; the lines come from the generator it answers.
   */
  async open(
    browserId: string,
    request: LogStreamRequest,
  ): Promise<(signal: AbortSignal) => AsyncGenerator<LogEvent, void>> {
    const entry = this.#browsers.live(browserId);
    const release = takeStreamPlace(entry, browserId, this.#context.settings.limits.logStreams);
    const { ending } = entry;
    const clock = this.#context.clock;
    if (request.source === 'supervisor') {
      const process: SessionLogProcess | undefined =
        request.supervisor_process === 'chromium' ? 'browser' : request.supervisor_process;
      async function* supervisor(signal: AbortSignal) {
        try {
          yield* entry.log.read(
            { process, follow: request.follow },
            AbortSignal.any([signal, ending.signal]),
          );
        } finally {
          release();
        }
      }
      return releasedOnAbort(supervisor, release);
    }
    let bytes: ReadableStream<Uint8Array>;
    try {
      bytes = await this.#files.follow(browserId, request.path ?? '', request.follow);
    } catch (error) {
      release();
      throw error;
    }
    async function* file(signal: AbortSignal): AsyncGenerator<LogEvent, void> {
      try {
        for await (const line of linesOf(bytes, AbortSignal.any([signal, ending.signal]))) {
          yield { event: 'log', timestamp: clock().toISOString(), ...line };
        }
      } finally {
        release();
      }
    }
    // What follows the file is stopped too when a stream is cancelled before its first line.
    return releasedOnAbort(file, () => {
      release();
      // The file's stream may have failed already; the follow stops either way.
      if (!bytes.locked) void bytes.cancel().catch(() => undefined);
    });
  }
}
