import {
  INSTANCE_HOME,
  type ProcessEvents,
  type ProcessRunner,
  type ProcessSignal,
  type ProcessSpec,
  type RunningProcess,
  refusals,
} from '@x/service-kernel';
import type { ChromiumInstance } from '../browsers/chromium-engine.js';
import { baseEnvironment, spawnSandbox } from '../sandbox/bubblewrap.js';
import { cpuPercent, groupMembers, groupUsage } from './usage.js';

/** A sample of cpu and memory shorter than this apart answers the last one again. */
const MIN_SAMPLE_MS = 250;

/**
 * A command in its sandbox. Its cpu and memory are measured when asked (status), over the window
 * since the last time they were: nothing scans /proc while nobody looks.
 */
class SandboxedProcess implements RunningProcess {
  readonly pid: number;
  readonly #child: ReturnType<typeof spawnSandbox>;
  #hasExited = false;
  #last: { ticks: number; at: number };
  #usage = { cpuPct: 0, memBytes: 0 };

  constructor(child: ReturnType<typeof spawnSandbox>) {
    this.#child = child;
    this.pid = child.pid ?? 0;
    this.#last = { ticks: 0, at: Date.now() };
    child.once('close', () => {
      this.#hasExited = true;
    });
  }

  usage() {
    const group = this.#child.pid;
    if (this.#hasExited || group === undefined) return { cpuPct: 0, memBytes: 0 };
    const now = Date.now();
    if (now - this.#last.at < MIN_SAMPLE_MS && this.#last.ticks > 0) return this.#usage;
    const measured = groupUsage(group);
    const sample = { ticks: measured.ticks, at: now };
    this.#usage = {
      cpuPct: Math.round(cpuPercent(this.#last, sample) * 10) / 10,
      memBytes: measured.residentBytes,
    };
    this.#last = sample;
    return this.#usage;
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

  constructor(bubblewrap: string | undefined) {
    this.#bubblewrap = bubblewrap;
  }

  assertAvailable(): void {
    if (!this.#bubblewrap) throw refusals.missingTool('Processes', 'bubblewrap', 'bubblewrap');
  }

  start(instance: ChromiumInstance, spec: ProcessSpec, events: ProcessEvents): RunningProcess {
    const child = spawnSandbox(
      this.#bubblewrap as string,
      {
        home: instance.home,
        cwd: spec.cwd,
        env: { ...baseEnvironment(), ...spec.env, HOME: INSTANCE_HOME },
        shareNetwork: false,
        user: instance.user,
        cgroup: instance.cgroup,
      },
      spec.command,
      spec.args,
      ['ignore', 'pipe', 'pipe'],
    );
    child.stdout?.on('data', (chunk: Buffer) => events.output('stdout', chunk));
    child.stderr?.on('data', (chunk: Buffer) => events.output('stderr', chunk));
    child.once('error', () => {
      // The sandbox itself could not start: reported as a failed command.
      events.output('stderr', Buffer.from('the sandbox failed to start\n'));
    });
    child.once('close', (code, signal) => events.exit({ code, signal }));
    return new SandboxedProcess(child);
  }
}
