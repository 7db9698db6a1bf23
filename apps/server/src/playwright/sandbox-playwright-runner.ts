import type { ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import {
  type PlaywrightOutcome,
  type PlaywrightRun,
  type PlaywrightRunner,
  playwrightTimedOut,
  refusals,
  ServiceError,
} from '@x/service-kernel';
import type { Logger } from 'pino';
import type { CdpChannel } from '../browsers/cdp-connection.js';
import { relayChannel } from '../browsers/channel-relay.js';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';
import { endSandbox } from '../sandbox/bubblewrap.js';
import {
  packageFolder,
  spawnWorker,
  type WorkerFiles,
  workerScript,
} from '../sandbox/worker-files.js';
import {
  describeOverflow,
  type RecordReader,
  readBoundedRecords,
} from '../system/bounded-records.js';

const NEWLINE = 0x0a;

/** How long a worker may take to start and connect to its browser. */
const START_TIMEOUT_MS = 30_000;

/** A worker not used for this long is stopped (the next call starts another). */
const IDLE_MS = 5 * 60_000;

/** Bytes of the worker's stderr kept, for the reason it failed. */
const STDERR_TAIL_BYTES = 16 * 1024;

/**
 * Longest answer line a worker may send: a result of 10 Mi characters of JSON and 1 Mi of
 * console per stream, as UTF-8 (up to 3 bytes a character) with JSON's escapes.
 */
const MAX_ANSWER_BYTES = 48 * 1024 * 1024;

/** Most bytes a worker may send on its answer channel for one call. */
const MAX_ANSWERS_BYTES = 256 * 1024 * 1024;

/**
 * Most bytes one call's code may write to the worker's own stdout and stderr together (not its
 * `console`, which each answer carries): they are read and dropped, but for the tail of stderr
 * kept for a failure's reason; past this the worker is stopped.
 */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** The files a worker runs from, on the host; undefined when one is missing. */
function findWorkerFiles(): WorkerFiles | undefined {
  const script = workerScript(import.meta.url, 'playwright-worker', 'playwright');
  if (!script) return undefined;
  const require = createRequire(import.meta.url);
  try {
    return {
      node: realpathSync(process.execPath),
      script,
      packages: {
        'playwright-core': packageFolder('playwright-core', require),
        ws: packageFolder('ws', require),
      },
    };
  } catch {
    return undefined;
  }
}

/** An answer from the worker. */
interface Answer extends PlaywrightOutcome {
  readonly id?: number;
  readonly ready?: boolean;
}

/**
 * One session's Playwright worker: Node with playwright-core in the session's sandbox (no
 * network, its user, its cgroup), connected to the browser through a DevTools channel of the
 * server's own pipe. Kept between calls; killed, with all the code it runs, at a time-out.
 */
class PlaywrightWorker {
  readonly #child: ChildProcess;
  readonly #channel: Promise<CdpChannel>;
  readonly #answers = new Map<number, (answer: Answer) => void>();
  readonly #ended: Promise<void>;
  /** Resolves once the worker has exited and everything waiting on it was told. */
  readonly ended: Promise<void>;
  #stderr = '';
  /** What the code of the call under way wrote to stdout and stderr, and the answers' reader. */
  #outputBytes = 0;
  readonly #answerReader: RecordReader;
  #nextId = 1;
  #isEnded = false;
  #idle: ReturnType<typeof setTimeout> | undefined;
  readonly ready: Promise<void>;

  constructor(bubblewrap: string, files: WorkerFiles, instance: ChromiumInstance) {
    this.#child = spawnWorker(
      bubblewrap,
      instance,
      files,
      ['--max-old-space-size=512'],
      ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'],
    );
    const ended = new Promise<void>((resolve) => {
      this.#child.once('close', () => resolve());
      this.#child.once('error', () => resolve());
    });
    this.#ended = ended;
    this.ended = ended.then(() => this.#end());
    const stderr = this.#child.stderr as Readable;
    stderr.on('data', (chunk: Buffer) => {
      if (this.#isPastOutput(chunk)) return;
      this.#stderr = (this.#stderr + chunk.toString()).slice(-STDERR_TAIL_BYTES);
    });
    const devtools = this.#child.stdio[3] as Socket;
    devtools.on('error', () => undefined);
    this.#channel = relayChannel(instance, devtools, () => this.stop());
    this.#channel.catch(() => this.stop());
    let isReady: (answer: Answer) => void = () => undefined;
    const readyAnswer = new Promise<Answer>((resolve) => {
      isReady = resolve;
    });
    this.#answers.set(0, isReady);
    // Answers come on fd 4, never on stdout, which the code run also writes to; each stream
    // the worker writes is read within bounds, and the worker stopped past them.
    const onOverflow = (what: string) => (overflow: Parameters<typeof describeOverflow>[0]) => {
      this.#stderr += `\n${describeOverflow(overflow, what)}`;
      this.stop();
    };
    this.#answerReader = readBoundedRecords(this.#child.stdio[4] as Readable, {
      delimiter: NEWLINE,
      maxRecordBytes: MAX_ANSWER_BYTES,
      maxTotalBytes: MAX_ANSWERS_BYTES,
      onRecord: (line) => this.#hear(line),
      onOverflow: onOverflow('The Playwright worker'),
    });
    (this.#child.stdout as Readable).on('data', (chunk: Buffer) => this.#isPastOutput(chunk));
    (this.#child.stdin as Writable).on('error', () => undefined);
    this.ready = this.#whenReady(readyAnswer);
  }

  get isEnded(): boolean {
    return this.#isEnded;
  }

  /** Counts a chunk of the worker's stdout or stderr; past the call's bound, stops the worker. */
  #isPastOutput(chunk: Buffer): boolean {
    if (this.#outputBytes > MAX_OUTPUT_BYTES) return true;
    this.#outputBytes += chunk.length;
    if (this.#outputBytes <= MAX_OUTPUT_BYTES) return false;
    this.#stderr += `\n${describeOverflow({ kind: 'total', bytes: this.#outputBytes }, 'The code')}`;
    this.stop();
    return true;
  }

  async #whenReady(readyAnswer: Promise<Answer>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answer = await Promise.race([
      readyAnswer,
      this.#ended.then(() => undefined),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), START_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (answer?.ready === true) return;
    this.stop();
    const why =
      answer?.error ?? (this.#stderr.trim().split('\n').at(-1) || 'it did not start in time');
    throw new ServiceError('unavailable', `The Playwright worker could not start: ${why}`);
  }

  #hear(line: Buffer): void {
    let answer: Answer;
    try {
      answer = JSON.parse(line.toString()) as Answer;
    } catch {
      return;
    }
    if (typeof answer !== 'object' || answer === null) return;
    const id = answer.ready === undefined ? answer.id : 0;
    if (id === undefined) return;
    const waiting = this.#answers.get(id);
    this.#answers.delete(id);
    waiting?.(answer);
  }

  /**
   * Runs code for at most `limitMs` (what is left of the call's time-out once the worker
   * started); resolves to its outcome (a time-out or an abort stops the worker).
   */
  async run(
    run: PlaywrightRun,
    limitMs: number,
    targetId: string | undefined,
    signal: AbortSignal,
    onStop: () => Promise<void>,
  ): Promise<PlaywrightOutcome> {
    clearTimeout(this.#idle);
    // The bounds count each call's output, so a worker kept warm does not add calls up.
    this.#outputBytes = 0;
    this.#answerReader.reset();
    const id = this.#nextId++;
    const answered = new Promise<Answer>((resolve) => this.#answers.set(id, resolve));
    (this.#child.stdin as Writable).write(`${JSON.stringify({ id, code: run.code, targetId })}\n`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort = () => {};
    const outcome = await Promise.race([
      answered,
      this.#ended.then(() => 'ended' as const),
      new Promise<'timed out'>((resolve) => {
        timer = setTimeout(() => resolve('timed out'), limitMs);
      }),
      new Promise<'aborted'>((resolve) => {
        onAbort = () => resolve('aborted');
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    this.#answers.delete(id);
    if (typeof outcome === 'object') {
      this.#idle = setTimeout(() => this.stop(), IDLE_MS);
      this.#idle.unref();
      const { id: _id, ready: _ready, ...rest } = outcome;
      return rest;
    }
    // The code is stopped for good with its process, and what it left running in the page too.
    this.stop();
    await onStop();
    if (outcome === 'timed out') return playwrightTimedOut(run.timeoutMs);
    if (outcome === 'aborted') return { success: false, error: 'The call was abandoned.' };
    const why = this.#stderr.trim().split('\n').at(-1);
    return {
      success: false,
      error: `The Playwright worker ended while the code ran${why ? `: ${why}` : ''}.`,
    };
  }

  /** Kills the worker and everything it started; its channel closes with it. */
  stop(): void {
    if (this.#isEnded) return;
    this.#isEnded = true;
    void endSandbox(this.#child);
  }

  #end(): void {
    this.#isEnded = true;
    clearTimeout(this.#idle);
    // A channel that never opened has nothing to close, and stopped the worker already.
    void this.#channel.then((channel) => channel.close()).catch(() => undefined);
    const why = this.#stderr.trim().split('\n').at(-1);
    const error = `The Playwright worker ended while the code ran${why ? `: ${why}` : ''}.`;
    for (const waiting of this.#answers.values()) waiting({ success: false, error });
    this.#answers.clear();
  }
}

/**
 * Runs Playwright code for the service: one worker per browser, in that browser's sandbox (never
 * in the server's process), started at the first call and kept warm for the next ones until it
 * is idle for five minutes, its code times out, or the browser ends.
 */
export class SandboxPlaywrightRunner implements PlaywrightRunner<ChromiumInstance> {
  readonly #bubblewrap: string | undefined;
  readonly #files: WorkerFiles | undefined;
  readonly #workers = new Map<ChromiumInstance, PlaywrightWorker>();
  readonly #logger: Logger;

  constructor(bubblewrap: string | undefined, logger: Logger) {
    this.#bubblewrap = bubblewrap;
    this.#files = findWorkerFiles();
    this.#logger = logger;
  }

  assertAvailable(): void {
    if (!this.#bubblewrap)
      throw refusals.missingTool('Playwright calls', 'bubblewrap', 'bubblewrap');
    if (!this.#files) {
      throw new ServiceError(
        'unavailable',
        'Playwright calls need playwright-core and ws beside the server, which are missing here.',
      );
    }
  }

  async run(
    instance: ChromiumInstance,
    run: PlaywrightRun,
    signal: AbortSignal,
  ): Promise<PlaywrightOutcome> {
    this.assertAvailable();
    const started = performance.now();
    let worker = this.#workers.get(instance);
    if (!worker || worker.isEnded) {
      worker = new PlaywrightWorker(
        this.#bubblewrap as string,
        this.#files as WorkerFiles,
        instance,
      );
      const made = worker;
      this.#workers.set(instance, made);
      // Its failure is logged and thrown below; this only keeps it from going unhandled.
      void made.ready.catch(() => undefined);
      // The browser's end ends the worker's channel, and with it the worker.
      void made.ended.then(() => {
        if (this.#workers.get(instance) === made) this.#workers.delete(instance);
      });
      try {
        await made.ready;
      } catch (error) {
        this.#workers.delete(instance);
        this.#logger.warn({ err: error }, 'a Playwright worker did not start');
        throw error;
      }
      this.#logger.debug(
        { startMs: Math.round(performance.now() - started) },
        'a Playwright worker started',
      );
    }
    const left = Math.max(1, run.timeoutMs - (performance.now() - started));
    return worker.run(run, left, instance.chromium.pageTargetId, signal, () =>
      instance.chromium.interruptScripts(),
    );
  }

  /** Stops every worker (the server is closing). */
  async close(): Promise<void> {
    const workers = [...this.#workers.values()];
    this.#workers.clear();
    for (const worker of workers) worker.stop();
  }
}
