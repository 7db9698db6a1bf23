import {
  type ExecResult,
  formatTimestamp,
  type ProcessCommandBodySchema,
  type ProcessOutputEvent,
  type ProcessStatus,
  type SpawnedProcess,
  type SpawnProcessBodySchema,
} from '@x/types';
import type { InferOutput } from 'valibot';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance, ProcessSignal } from '../engines.js';
import { resolveInstancePath } from '../instance-paths.js';
import { INSTANCE_HOME, notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { followProcessOutput } from './follow-output.js';
import { OutputTail } from './output-tail.js';
import { exitCodeOf, type ProcessEntry, signalProcess, wakeReaders } from './process-entry.js';

/** What spawn and exec ask for, validated. */
export type ProcessCommand = InferOutput<typeof ProcessCommandBodySchema>;

/** What spawn asks for, validated: a command, on a terminal when asked (none when left out). */
export type SpawnCommand = ProcessCommand &
  Partial<Pick<InferOutput<typeof SpawnProcessBodySchema>, 'allocate_tty' | 'rows' | 'cols'>>;

/**
 * Every rule of processes on instances: `cwd` a directory inside the home, `timeout_sec`, the
 * exit code (128 + signal when a signal ended it), exec's collected output, status until the
 * browser is deleted, and the output stream from the start.
 */
export class ProcessModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
  }

  /** 403 when the operator turned processes off, 503 when the runner cannot run them here. */
  #assertAvailable(): void {
    if (!this.#context.settings.isProcessExecutionEnabled) throw refusals.processesTurnedOff();
    this.#context.engines.processes.assertAvailable();
  }

  /** Starts a command on a browser's instance, with an input the caller can write to. */
  spawn(browserId: string, command: SpawnCommand): SpawnedProcess {
    const { allocate_tty: isTerminal, rows, cols, ...rest } = command;
    if (!isTerminal && (rows !== undefined || cols !== undefined)) throw refusals.sizeWithoutTty();
    const process = this.#start(browserId, rest, {
      stdin: true,
      tty: isTerminal ? { rows: rows ?? 24, cols: cols ?? 80 } : undefined,
    });
    return {
      process_id: process.id,
      pid: process.handle?.pid ?? 0,
      started_at: formatTimestamp(process.startedAt),
    };
  }

  /** Runs a command to its end and gives its output; a caller who goes away takes it along. */
  async exec(browserId: string, command: ProcessCommand, signal: AbortSignal): Promise<ExecResult> {
    const started = performance.now();
    const process = this.#start(browserId, command, { stdin: false, tty: undefined });
    // Following its output to the end is waiting for its exit.
    for await (const _ of followProcessOutput(process, signal)) {
      // Nothing to do with each event: they are collected below.
    }
    signalProcess(process, 'KILL');
    const result: ExecResult = {
      exit_code: process.exitCode ?? 137,
      stdout_b64: process.output.kept('stdout').toString('base64'),
      stderr_b64: process.output.kept('stderr').toString('base64'),
      duration_ms: Math.round(performance.now() - started),
    };
    const dropped = process.output.droppedBytes;
    return dropped > 0 ? { ...result, dropped_bytes: dropped } : result;
  }

  /** Sends a signal; a process that has exited is left as it is. */
  kill(browserId: string, processId: string, signal: ProcessSignal): void {
    signalProcess(this.find(browserId, processId), signal);
  }

  /** Writes to a running process's input (its terminal's, when it has one); gives the bytes taken. */
  writeInput(browserId: string, processId: string, dataB64: string): number {
    const process = this.find(browserId, processId);
    if (process.exitCode !== null || !process.handle) throw refusals.inputClosed();
    return process.handle.writeInput(Buffer.from(dataB64, 'base64'));
  }

  /** Sets the size of a process's terminal (a SIGWINCH tells the process). */
  resize(browserId: string, processId: string, rows: number, cols: number): void {
    const process = this.find(browserId, processId);
    if (!process.hasTerminal) throw refusals.notTerminal();
    process.handle?.resize(rows, cols);
  }

  status(browserId: string, processId: string): ProcessStatus {
    const process = this.find(browserId, processId);
    const usage =
      process.exitCode === null && process.handle
        ? process.handle.usage()
        : { cpuPct: 0, memBytes: 0 };
    return {
      state: process.exitCode === null ? 'running' : 'exited',
      exit_code: process.exitCode,
      cpu_pct: usage.cpuPct,
      mem_bytes: usage.memBytes,
    };
  }

  /** The process's output so far and as it comes, ending with its exit. */
  output(process: ProcessEntry, signal: AbortSignal): AsyncGenerator<ProcessOutputEvent, void> {
    return followProcessOutput(process, signal);
  }

  /** A process of a live browser; 404 when either is not there. */
  find(browserId: string, processId: string): ProcessEntry {
    this.#assertAvailable();
    const process = this.#browsers.live(browserId).processes.get(processId);
    if (!process) throw notFound('process', processId);
    return process;
  }

  get #limits() {
    return this.#context.settings.limits;
  }

  #start(
    browserId: string,
    command: ProcessCommand,
    io: { stdin: boolean; tty: { rows: number; cols: number } | undefined },
  ): ProcessEntry {
    this.#assertAvailable();
    const browser = this.#browsers.live(browserId);
    const running = [...browser.processes.values()].filter((entry) => entry.exitCode === null);
    if (running.length >= this.#limits.processes) {
      throw refusals.tooManyProcesses(browserId, this.#limits.processes);
    }
    const cwd = resolveInstancePath('cwd', command.cwd ?? INSTANCE_HOME);
    const kind = browser.instance.stat(cwd, 'cwd');
    if (kind === undefined) throw refusals.cwdMissing(cwd);
    if (kind !== 'dir') throw refusals.cwdNotDirectory(cwd);
    const process: ProcessEntry = {
      id: this.#context.nextId('proc'),
      startedAt: this.#context.clock(),
      handle: undefined,
      exitCode: null,
      output: new OutputTail(this.#limits.processOutputBytes),
      listeners: new Set(),
      timer: undefined,
      hasTerminal: io.tty !== undefined,
    };
    browser.processes.set(process.id, process);
    process.handle = this.#context.engines.processes.start(
      browser.instance,
      {
        id: process.id,
        command: command.command,
        args: command.args,
        cwd,
        env: command.env,
        stdin: io.stdin,
        tty: io.tty,
      },
      {
        output: (stream, bytes) => {
          if (process.exitCode !== null || bytes.byteLength === 0) return;
          process.output.write(stream, bytes);
          wakeReaders(process);
        },
        exit: (end) => {
          if (process.exitCode !== null) return;
          clearTimeout(process.timer);
          process.exitCode = exitCodeOf(end);
          process.output.end(process.exitCode);
          wakeReaders(process);
          this.#forgetOldest(browser.processes);
        },
      },
    );
    if (command.timeout_sec !== undefined && process.exitCode === null) {
      // Past its time-out the process is killed, as `timeout_sec` asks.
      process.timer = setTimeout(() => signalProcess(process, 'KILL'), command.timeout_sec * 1000);
      process.timer.unref?.();
    }
    return process;
  }

  /** Past the number of ended processes a browser keeps, the oldest ended ones are forgotten. */
  #forgetOldest(processes: Map<string, ProcessEntry>): void {
    const ended = [...processes.values()].filter((entry) => entry.exitCode !== null);
    const excess = ended.length - this.#limits.endedProcesses;
    for (const entry of ended.slice(0, Math.max(0, excess))) processes.delete(entry.id);
  }
}
