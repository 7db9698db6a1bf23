import { closeSync } from 'node:fs';
import { constants } from 'node:os';
import {
  INSTANCE_HOME,
  type ProcessEnd,
  type ProcessEvents,
  type ProcessRunner,
  type ProcessSignal,
  type ProcessSpec,
  type RunningProcess,
  refusals,
} from '@x/service-kernel';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';
import {
  baseEnvironment,
  type SandboxSpec,
  spawnSandbox,
  spawnSandboxInTerminal,
} from '../sandbox/bubblewrap.js';
import { OutputPipes } from './output-pipes.js';
import { ProcessSampler } from './sampler.js';
import { groupMembers } from './usage.js';

/** Bytes written to a process's input that it has not read yet, past which a write is refused. */
export const MAX_PENDING_INPUT_BYTES = 1024 * 1024;

/**
 * How long a signal waits for a command still being set up in its sandbox: long past any start,
 * since a signal dropped leaves the command running (a sandbox that never runs it ends anyway).
 */
const PENDING_SIGNAL_MS = 30_000;

/** Where a process's input goes: a pipe, a terminal, or nowhere. */
interface ProcessInput {
  /** Bytes still waiting for the process to read them. */
  pending(): number;
  write(bytes: Uint8Array): void;
  resize?(rows: number, cols: number): void;
}

/** A command in its sandbox. Its cpu and memory are what the runner's one sampler last read. */
class SandboxedProcess implements RunningProcess {
  readonly pid: number;
  readonly #group: number | undefined;
  readonly #sampler: ProcessSampler;
  readonly #input: ProcessInput | undefined;
  #hasExited = false;

  constructor(
    group: number | undefined,
    sampler: ProcessSampler,
    input: ProcessInput | undefined,
    ended: Promise<unknown>,
  ) {
    this.#group = group;
    this.#sampler = sampler;
    this.#input = input;
    this.pid = group ?? 0;
    if (group !== undefined) sampler.track(group);
    void ended.then(() => {
      this.#hasExited = true;
      if (group !== undefined) sampler.forget(group);
    });
  }

  usage() {
    const group = this.#group;
    if (this.#hasExited || group === undefined) return { cpuPct: 0, memBytes: 0 };
    return this.#sampler.usage(group);
  }

  writeInput(bytes: Uint8Array): number {
    if (this.#hasExited || !this.#input) throw refusals.inputClosed();
    if (this.#input.pending() + bytes.byteLength > MAX_PENDING_INPUT_BYTES) {
      throw refusals.inputFull(MAX_PENDING_INPUT_BYTES);
    }
    this.#input.write(bytes);
    return bytes.byteLength;
  }

  resize(rows: number, cols: number): void {
    if (!this.#input?.resize) throw refusals.notTerminal();
    if (!this.#hasExited) this.#input.resize(rows, cols);
  }

  /**
   * Signals the command and whatever it started, not the sandbox around them (bubblewrap's
   * processes, and the group's leader, which becomes bubblewrap): bwrap then exits with the
   * command's status (128+signal when the signal ended it). A command still being set
   * up in its sandbox (a loaded machine can take seconds over it) is signalled as soon as it
   * runs, looked for until it ends or for {@link PENDING_SIGNAL_MS}. KILL takes the whole process group, the
   * sandbox too, in one call: the kernel lets no member fork its way out of a group kill, where a
   * look at /proc then a kill per member misses a bwrap that forks in between (it would survive
   * as an orphan and run the command later).
   */
  signal(signal: ProcessSignal, until = Date.now() + PENDING_SIGNAL_MS): void {
    const group = this.#group;
    if (this.#hasExited || group === undefined) return;
    if (signal === 'KILL') {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
      return;
    }
    let signalled = 0;
    for (const member of groupMembers(group)) {
      // The group's leader is what starts the sandbox (a shell that becomes bubblewrap), never
      // the command: a TERM it took as bubblewrap, before its sandbox was told to die with it,
      // would leave the sandbox running the command with no one to signal it.
      if (member.pid === group || member.name === 'bwrap') continue;
      try {
        process.kill(member.pid, `SIG${signal}`);
        signalled++;
      } catch {
        // It ended between the look and the signal.
      }
    }
    if (signalled === 0 && Date.now() < until) {
      const retry = setTimeout(() => this.signal(signal, until), 25);
      retry.unref();
    }
  }
}

/**
 * A process's sandbox: the instance's home, its user and cgroup, no network, the processes'
 * seccomp filter; the environment the call gives over `defaults` and the base one.
 */
function sandboxOf(
  instance: ChromiumInstance,
  spec: ProcessSpec,
  defaults: Readonly<Record<string, string>>,
): SandboxSpec {
  return {
    home: instance.home,
    cwd: spec.cwd,
    env: { ...defaults, ...baseEnvironment(), ...spec.env, HOME: INSTANCE_HOME },
    shareNetwork: false,
    user: instance.user,
    cgroup: instance.cgroup,
    seccomp: 'process',
  };
}

/**
 * `events.output`, kept from throwing into the stream event that calls it (and from there into
 * the server process): output the server cannot keep stops the process, whose exit is still
 * told, as output past a bound does elsewhere.
 */
function guardedOutput(events: ProcessEvents, stop: () => void): ProcessEvents['output'] {
  let hasFailed = false;
  return (stream, bytes) => {
    if (hasFailed) return;
    try {
      events.output(stream, bytes);
    } catch {
      hasFailed = true;
      stop();
    }
  };
}

/** `SIGKILL` for 9, as a child process reports the signal that ended it. */
function signalName(signal: number): string {
  const found = Object.entries(constants.signals).find(([, number]) => number === signal);
  return found?.[0] ?? `SIG${signal}`;
}

/**
 * Runs processes on browsers' instances, each in a bubblewrap sandbox of its own: no network,
 * the instance's home, as the browser's user, with only the environment the call gives.
 */
export class SandboxProcessRunner implements ProcessRunner<ChromiumInstance> {
  readonly #bubblewrap: string | undefined;
  readonly #sampler = new ProcessSampler();
  readonly #pipes: OutputPipes;
  readonly #staging: string;

  /**
   * `pipesFolder`: a private folder for the output pipes while they are made, and for what a
   * terminal's sandbox is started with.
   */
  constructor(bubblewrap: string | undefined, pipesFolder: string) {
    this.#bubblewrap = bubblewrap;
    this.#pipes = new OutputPipes(pipesFolder);
    this.#staging = pipesFolder;
  }

  assertAvailable(): void {
    if (!this.#bubblewrap) throw refusals.missingTool('Processes', 'bubblewrap', 'bubblewrap');
  }

  start(instance: ChromiumInstance, spec: ProcessSpec, events: ProcessEvents): RunningProcess {
    if (spec.tty) return this.#startInTerminal(instance, spec, spec.tty, events);
    const streams = ['stdout', 'stderr'] as const;
    let running: SandboxedProcess | undefined;
    const output = guardedOutput(events, () => running?.signal('KILL'));
    const pipes = this.#pipes.open(2, (index, bytes) =>
      output(streams[index] as (typeof streams)[number], bytes),
    );
    let child: ReturnType<typeof spawnSandbox>;
    try {
      child = spawnSandbox(
        this.#bubblewrap as string,
        sandboxOf(instance, spec, {}),
        spec.command,
        spec.args,
        [spec.stdin ? 'pipe' : 'ignore', ...pipes.map((pipe) => pipe.writeFd)],
      );
    } finally {
      // The process has its own copies: once it (and all it started) ends, the pipes drain.
      for (const pipe of pipes) closeSync(pipe.writeFd);
    }
    child.once('error', () => {
      // The sandbox itself could not start: reported as a failed command.
      output('stderr', Buffer.from('the sandbox failed to start\n'));
    });
    const ended = new Promise<ProcessEnd>((resolve) =>
      child.once('close', (code, signal) => resolve({ code, signal })),
    );
    // The exit is told after the last byte of output, as the model expects.
    void Promise.all([ended, ...pipes.map((pipe) => pipe.drained)]).then(([end]) =>
      events.exit(end),
    );
    const stdin = child.stdin;
    stdin?.on('error', () => undefined); // the process closed its input: later writes are refused
    const input: ProcessInput | undefined = stdin
      ? { pending: () => stdin.writableLength, write: (bytes) => stdin.write(bytes) }
      : undefined;
    running = new SandboxedProcess(child.pid, this.#sampler, input, ended);
    return running;
  }

  /** A command on a terminal of its own: its output (stdout and stderr as one) reads as stdout. */
  #startInTerminal(
    instance: ChromiumInstance,
    spec: ProcessSpec,
    size: { readonly rows: number; readonly cols: number },
    events: ProcessEvents,
  ): RunningProcess {
    const { terminal } = spawnSandboxInTerminal(
      this.#bubblewrap as string,
      sandboxOf(instance, spec, { TERM: 'xterm-256color' }),
      spec.command,
      spec.args,
      size,
      this.#staging,
    );
    // node-pty writes through a socket on the terminal's master side; what it still holds is the
    // input the command has not read (the terminal's own buffer aside).
    const socket = (terminal as unknown as { _socket?: { writableLength: number } })._socket;
    let running: SandboxedProcess | undefined;
    const output = guardedOutput(events, () => running?.signal('KILL'));
    terminal.onData((bytes) => output('stdout', bytes as unknown as Uint8Array));
    const ended = new Promise<ProcessEnd>((resolve) =>
      terminal.onExit(({ exitCode, signal }) =>
        resolve(
          signal ? { code: null, signal: signalName(signal) } : { code: exitCode, signal: null },
        ),
      ),
    );
    void ended.then((end) => events.exit(end));
    running = new SandboxedProcess(
      terminal.pid,
      this.#sampler,
      {
        pending: () => socket?.writableLength ?? 0,
        // Bytes as they are (node-pty types a string, and passes either to its socket).
        write: (bytes) => terminal.write(Buffer.from(bytes) as unknown as string),
        resize: (rows, cols) => terminal.resize(cols, rows),
      },
      ended,
    );
    return running;
  }
}
