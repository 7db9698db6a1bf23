import { closeSync } from 'node:fs';
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
import type { ChromiumInstance } from '../browsers/chromium-engine.js';
import { baseEnvironment, spawnSandbox } from '../sandbox/bubblewrap.js';
import { OutputPipes } from './output-pipes.js';
import { ProcessSampler } from './sampler.js';
import { groupMembers } from './usage.js';

/** A command in its sandbox. Its cpu and memory are what the runner's one sampler last read. */
class SandboxedProcess implements RunningProcess {
  readonly pid: number;
  readonly #child: ReturnType<typeof spawnSandbox>;
  readonly #sampler: ProcessSampler;
  #hasExited = false;

  constructor(child: ReturnType<typeof spawnSandbox>, sampler: ProcessSampler) {
    this.#child = child;
    this.#sampler = sampler;
    this.pid = child.pid ?? 0;
    if (child.pid !== undefined) sampler.track(child.pid);
    child.once('close', () => {
      this.#hasExited = true;
      if (child.pid !== undefined) sampler.forget(child.pid);
    });
  }

  usage() {
    const group = this.#child.pid;
    if (this.#hasExited || group === undefined) return { cpuPct: 0, memBytes: 0 };
    return this.#sampler.usage(group);
  }

  /**
   * Signals the command and whatever it started, not the sandbox around them: bwrap then exits
   * with the command's status (128+signal when the signal ended it). A command still being set
   * up in its sandbox is signalled as soon as it runs. KILL takes the whole process group, the
   * sandbox too, in one call: the kernel lets no member fork its way out of a group kill, where a
   * look at /proc then a kill per member misses a bwrap that forks in between (it would survive
   * as an orphan and run the command later).
   */
  signal(signal: ProcessSignal, attempt = 0): void {
    const group = this.#child.pid;
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
      if (member.name === 'bwrap') continue;
      try {
        process.kill(member.pid, `SIG${signal}`);
        signalled++;
      } catch {
        // It ended between the look and the signal.
      }
    }
    if (signalled === 0 && attempt < 40) {
      const retry = setTimeout(() => this.signal(signal, attempt + 1), 25);
      retry.unref();
    }
  }
}

/**
 * Runs processes on browsers' instances, each in a bubblewrap sandbox of its own: no network,
 * the instance's home, as the browser's user, with only the environment the call gives.
 */
export class SandboxProcessRunner implements ProcessRunner<ChromiumInstance> {
  readonly #bubblewrap: string | undefined;
  readonly #sampler = new ProcessSampler();
  readonly #pipes: OutputPipes;

  /** `pipesFolder`: a private folder for the output pipes while they are made. */
  constructor(bubblewrap: string | undefined, pipesFolder: string) {
    this.#bubblewrap = bubblewrap;
    this.#pipes = new OutputPipes(pipesFolder);
  }

  assertAvailable(): void {
    if (!this.#bubblewrap) throw refusals.missingTool('Processes', 'bubblewrap', 'bubblewrap');
  }

  start(instance: ChromiumInstance, spec: ProcessSpec, events: ProcessEvents): RunningProcess {
    const streams = ['stdout', 'stderr'] as const;
    const pipes = this.#pipes.open(2, (index, bytes) =>
      events.output(streams[index] as (typeof streams)[number], bytes),
    );
    let child: ReturnType<typeof spawnSandbox>;
    try {
      child = spawnSandbox(
        this.#bubblewrap as string,
        {
          home: instance.home,
          cwd: spec.cwd,
          env: { ...baseEnvironment(), ...spec.env, HOME: INSTANCE_HOME },
          shareNetwork: false,
          user: instance.user,
          cgroup: instance.cgroup,
          seccomp: 'process',
        },
        spec.command,
        spec.args,
        ['ignore', ...pipes.map((pipe) => pipe.writeFd)],
      );
    } finally {
      // The process has its own copies: once it (and all it started) ends, the pipes drain.
      for (const pipe of pipes) closeSync(pipe.writeFd);
    }
    child.once('error', () => {
      // The sandbox itself could not start: reported as a failed command.
      events.output('stderr', Buffer.from('the sandbox failed to start\n'));
    });
    const ended = new Promise<ProcessEnd>((resolve) =>
      child.once('close', (code, signal) => resolve({ code, signal })),
    );
    // The exit is told after the last byte of output, as the model expects.
    void Promise.all([ended, ...pipes.map((pipe) => pipe.drained)]).then(([end]) =>
      events.exit(end),
    );
    return new SandboxedProcess(child, this.#sampler);
  }
}
