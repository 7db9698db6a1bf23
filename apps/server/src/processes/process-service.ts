import type { ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { createIdGenerator, followProcessOutput, notFound, ServiceError } from '@x/service-kernel';
import type { ProcessCommandBodySchema } from '@x/types';
import {
  type ExecResult,
  formatTimestamp,
  type ProcessOutputEvent,
  type ProcessStatus,
  type SpawnedProcess,
} from '@x/types';
import type { InferOutput } from 'valibot';
import {
  baseEnvironment,
  INSTANCE_HOME,
  type SandboxUser,
  spawnSandbox,
} from '../sandbox/bubblewrap.js';
import { resolveOnInstance } from './instance-path.js';
import { cpuPercent, groupMembers, groupUsage } from './usage.js';

/** What spawn and exec ask for, validated. */
type ProcessCommand = InferOutput<typeof ProcessCommandBodySchema>;

/** The instance a process runs on: its home on the host, and the user its browser runs as. */
export interface ProcessInstance {
  readonly home: string;
  readonly user: SandboxUser | undefined;
}

/** The signals a process can be sent, with their numbers. */
const SIGNALS = { TERM: 15, KILL: 9, INT: 2, HUP: 1 } as const;

/** How often cpu and memory are sampled while a process runs. */
const SAMPLE_MS = 500;

/** A process on a browser's instance. */
interface RunningProcess {
  readonly id: string;
  readonly browserId: string;
  readonly child: ChildProcess;
  readonly startedAt: number;
  exitCode: number | null;
  cpuPct: number;
  memBytes: number;
  /** Its output so far, then its exit: what an output stream replays and follows. */
  readonly output: ProcessOutputEvent[];
  readonly listeners: Set<() => void>;
  readonly timers: ReturnType<typeof setTimeout>[];
}

const nextId = createIdGenerator();

/**
 * Processes on browsers' instances, each in a bubblewrap sandbox: spawn, exec, kill, status with
 * measured cpu and memory, and the output stream. Every process of a browser dies with it.
 */
export class ProcessService {
  readonly #bubblewrap: string | undefined;
  readonly #isEnabled: boolean;
  readonly #processes = new Map<string, RunningProcess>();

  constructor(bubblewrap: string | undefined, isEnabled: boolean) {
    this.#bubblewrap = bubblewrap;
    this.#isEnabled = isEnabled;
  }

  /** 403 when the operator turned processes off, 503 when there is no sandbox to run them in. */
  #assertAvailable(): string {
    if (!this.#isEnabled)
      throw new ServiceError('forbidden', 'Process execution is turned off on this server.');
    if (!this.#bubblewrap) {
      throw new ServiceError(
        'unavailable',
        'Processes need bubblewrap, which is not installed on this server (apt-get install bubblewrap).',
      );
    }
    return this.#bubblewrap;
  }

  /**
   * Starts a command on an instance, in a sandbox of its own: no network, the instance's home,
   * as the browser's user, with only the environment the call gives.
   */
  spawn(browserId: string, instance: ProcessInstance, body: ProcessCommand): SpawnedProcess {
    const bubblewrap = this.#assertAvailable();
    const cwd = this.#resolveCwd(instance.home, body.cwd ?? INSTANCE_HOME);
    const env = { ...baseEnvironment(), ...body.env, HOME: INSTANCE_HOME };
    const child = spawnSandbox(
      bubblewrap,
      { home: instance.home, cwd, env, shareNetwork: false, user: instance.user },
      body.command,
      body.args,
      ['ignore', 'pipe', 'pipe'],
    );
    const process: RunningProcess = {
      id: nextId('proc'),
      browserId,
      child,
      startedAt: Date.now(),
      exitCode: null,
      cpuPct: 0,
      memBytes: 0,
      output: [],
      listeners: new Set(),
      timers: [],
    };
    this.#processes.set(process.id, process);
    const emit = (event: ProcessOutputEvent) => {
      process.output.push(event);
      for (const listener of process.listeners) listener();
    };
    child.stdout?.on('data', (chunk: Buffer) =>
      emit({ type: 'stdout', data_b64: chunk.toString('base64') }),
    );
    child.stderr?.on('data', (chunk: Buffer) =>
      emit({ type: 'stderr', data_b64: chunk.toString('base64') }),
    );
    let last = { ticks: 0, at: Date.now() };
    const sampler = setInterval(() => {
      if (child.pid === undefined) return;
      const usage = groupUsage(child.pid);
      const now = { ticks: usage.ticks, at: Date.now() };
      process.cpuPct = Math.round(cpuPercent(last, now) * 10) / 10;
      process.memBytes = usage.residentBytes;
      last = now;
    }, SAMPLE_MS);
    sampler.unref();
    process.timers.push(sampler);
    if (body.timeout_sec !== undefined) {
      const timer = setTimeout(() => this.#signal(process, 'KILL'), body.timeout_sec * 1000);
      timer.unref();
      process.timers.push(timer);
    }
    child.once('close', (code, signal) => {
      for (const timer of process.timers) clearTimeout(timer);
      process.exitCode = signal
        ? 128 + (SIGNALS[signal.replace('SIG', '') as keyof typeof SIGNALS] ?? 0)
        : (code ?? 0);
      process.cpuPct = 0;
      process.memBytes = 0;
      emit({ type: 'exit', exit_code: process.exitCode });
    });
    child.once('error', () => {
      // The sandbox itself could not start: reported as a failed command.
      if (process.exitCode === null)
        emit({
          type: 'stderr',
          data_b64: Buffer.from('the sandbox failed to start\n').toString('base64'),
        });
    });
    return {
      process_id: process.id,
      pid: child.pid ?? 0,
      started_at: formatTimestamp(new Date(process.startedAt)),
    };
  }

  /** Runs a command to its end and gives its output; a caller who goes away takes it with them. */
  async exec(
    browserId: string,
    instance: ProcessInstance,
    body: ProcessCommand,
    signal: AbortSignal,
  ): Promise<ExecResult> {
    const started = performance.now();
    const { process_id } = this.spawn(browserId, instance, body);
    const process = this.#processes.get(process_id) as RunningProcess;
    // Following its output to the end is waiting for its exit.
    for await (const _ of followProcessOutput(process, signal)) {
      // Nothing to do with the events here: exec collects them all below.
    }
    if (process.exitCode === null) this.#signal(process, 'KILL');
    const collected = (type: 'stdout' | 'stderr') =>
      Buffer.concat(
        process.output.flatMap((event) =>
          event.type === type ? [Buffer.from(event.data_b64, 'base64')] : [],
        ),
      ).toString('base64');
    return {
      exit_code: process.exitCode ?? 137,
      stdout_b64: collected('stdout'),
      stderr_b64: collected('stderr'),
      duration_ms: Math.round(performance.now() - started),
    };
  }

  /** Sends a signal; a process that has exited already is left as it is. */
  kill(browserId: string, processId: string, signal: keyof typeof SIGNALS): void {
    this.#signal(this.#find(browserId, processId), signal);
  }

  status(browserId: string, processId: string): ProcessStatus {
    const process = this.#find(browserId, processId);
    return {
      state: process.exitCode === null ? 'running' : 'exited',
      exit_code: process.exitCode,
      cpu_pct: process.cpuPct,
      mem_bytes: process.memBytes,
    };
  }

  /** The process's output so far and as it comes, ending with its exit. */
  output(
    browserId: string,
    processId: string,
    signal: AbortSignal,
  ): AsyncGenerator<ProcessOutputEvent, void> {
    return followProcessOutput(this.#find(browserId, processId), signal);
  }

  /** Ends every process of a browser (it is being deleted). */
  endAll(browserId: string): void {
    for (const process of this.#processes.values()) {
      if (process.browserId === browserId) this.#signal(process, 'KILL');
    }
  }

  /** Checks that a process exists for the operation (and that processes are available). */
  assertExists(browserId: string, processId: string): void {
    this.#find(browserId, processId);
  }

  #find(browserId: string, processId: string): RunningProcess {
    this.#assertAvailable();
    const process = this.#processes.get(processId);
    if (!process || process.browserId !== browserId) throw notFound('process', processId);
    return process;
  }

  /**
   * Signals the command and whatever it started, not the sandbox around them: bwrap then exits
   * with the command's status (128+signal when the signal ended it). KILL takes the sandbox too.
   * A command still being set up in its sandbox is signalled as soon as it runs.
   */
  #signal(running: RunningProcess, signal: keyof typeof SIGNALS, attempt = 0): void {
    const group = running.child.pid;
    if (running.exitCode !== null || group === undefined) return;
    let signalled = 0;
    for (const member of groupMembers(group)) {
      if (member.name === 'bwrap' && signal !== 'KILL') continue;
      try {
        process.kill(member.pid, `SIG${signal}`);
        signalled++;
      } catch {
        // It ended between the look and the signal.
      }
    }
    if (signalled === 0 && attempt < 40) {
      const retry = setTimeout(() => this.#signal(running, signal, attempt + 1), 25);
      retry.unref();
    }
  }

  /** The instance path of an existing `cwd` directory inside /home/browser; 400 otherwise. */
  #resolveCwd(home: string, cwd: string): string {
    const resolved = resolveOnInstance(home, cwd, 'cwd');
    if (!resolved.exists)
      throw new ServiceError(
        'bad_request',
        `cwd ${resolved.instancePath} does not exist on the instance.`,
      );
    if (!statSync(resolved.hostPath).isDirectory()) {
      throw new ServiceError('bad_request', `cwd ${resolved.instancePath} is not a directory.`);
    }
    return resolved.instancePath;
  }
}
