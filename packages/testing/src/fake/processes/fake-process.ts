import {
  exitCodeOf,
  type ProcessEvents,
  type ProcessSignal,
  type RunningProcess,
  refusals,
} from '@x/service-kernel';

/** What status reports while a scripted process runs, unless its script says otherwise. */
const DEFAULT_USAGE = { cpuPct: 0.5, memBytes: 4 * 1024 * 1024 };

/**
 * A simulated process: it ends when its script, a signal or the test says so, and reports what
 * it writes to the service model.
 */
export class FakeProcess implements RunningProcess {
  readonly id: string;
  readonly pid: number;
  readonly browserId: string;
  readonly command: string;
  readonly args: readonly string[];
  state: 'running' | 'exited' = 'running';
  exitCode: number | null = null;
  cpuPct: number;
  memBytes: number;
  /** Its terminal's size, when it runs on one. */
  terminal: { rows: number; cols: number } | undefined;
  /** What was written to its input, the newest 64 KiB (undefined: it has no input). */
  input: string | undefined;
  /** Whether it writes back what it reads (as `cat` does). */
  echoesInput = false;
  readonly #events: ProcessEvents;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    spec: { id: string; pid: number; browserId: string; command: string; args: readonly string[] },
    events: ProcessEvents,
    usage: { cpuPct?: number | undefined; memBytes?: number | undefined } = {},
  ) {
    this.id = spec.id;
    this.pid = spec.pid;
    this.browserId = spec.browserId;
    this.command = spec.command;
    this.args = spec.args;
    this.cpuPct = usage.cpuPct ?? DEFAULT_USAGE.cpuPct;
    this.memBytes = usage.memBytes ?? DEFAULT_USAGE.memBytes;
    this.#events = events;
  }

  writeInput(bytes: Uint8Array): number {
    if (this.state === 'exited' || this.input === undefined) throw refusals.inputClosed();
    const text = new TextDecoder().decode(bytes);
    this.input = (this.input + text).slice(-64 * 1024);
    if (this.echoesInput) this.write('stdout', text);
    return bytes.byteLength;
  }

  resize(rows: number, cols: number): void {
    if (!this.terminal) throw refusals.notTerminal();
    this.terminal = { rows, cols };
  }

  /** Writes to stdout or stderr while it runs. */
  write(stream: 'stdout' | 'stderr', text: string): void {
    if (this.state === 'exited' || text === '') return;
    this.#events.output(stream, new TextEncoder().encode(text));
  }

  /** Ends it by itself after `ms` with `exitCode`. */
  endAfter(ms: number, exitCode: number): void {
    const timer = setTimeout(() => this.exit(exitCode), ms);
    timer.unref();
    this.#timers.add(timer);
  }

  /** Ends it with an exit code. */
  exit(exitCode: number): void {
    this.#end({ code: exitCode, signal: null });
  }

  signal(signal: ProcessSignal): void {
    this.#end({ code: null, signal: `SIG${signal}` });
  }

  usage() {
    return { cpuPct: this.cpuPct, memBytes: this.memBytes };
  }

  #end(end: { code: number | null; signal: string | null }): void {
    if (this.state === 'exited') return;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.state = 'exited';
    this.exitCode = exitCodeOf(end);
    this.cpuPct = 0;
    this.memBytes = 0;
    this.#events.exit(end);
  }
}
