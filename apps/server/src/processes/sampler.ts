import { childrenOf, readProc } from '../system/process-tree.js';
import { cpuPercent } from './usage.js';

/** How often the sampler reads the processes it tracks. */
export const SAMPLE_INTERVAL_MS = 1_000;

/** What one process tree used, as last sampled. */
export interface Usage {
  readonly cpuPct: number;
  readonly memBytes: number;
}

interface Tracked {
  readonly leader: number;
  last: { ticks: number; at: number } | undefined;
  usage: Usage;
}

/** CPU ticks and resident bytes of one process, from /proc/<pid>/stat. */
function processUsage(pid: number): { ticks: number; rss: number } | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ticks: Number(fields[11]) + Number(fields[12]), rss: Number(fields[21]) * 4096 };
}

/**
 * One sampler for the cpu and memory of every running process: once a second, off the request
 * path, it walks each tracked process's tree from its leader (the sandbox) through /proc's
 * `children` files, reading only those processes, and keeps the figures that status answers
 * with. Nothing runs while nothing is tracked.
 */
export class ProcessSampler {
  readonly #tracked = new Map<number, Tracked>();
  #timer: ReturnType<typeof setInterval> | undefined;

  /** Starts sampling a process tree; its usage reads 0 until the first sample. */
  track(leader: number): void {
    this.#tracked.set(leader, { leader, last: undefined, usage: { cpuPct: 0, memBytes: 0 } });
    if (this.#timer) return;
    this.#timer = setInterval(() => this.sample(), SAMPLE_INTERVAL_MS);
    this.#timer.unref();
    this.sample();
  }

  /** Stops sampling it (it ended). */
  forget(leader: number): void {
    this.#tracked.delete(leader);
    if (this.#tracked.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** The last figures of a tracked tree. */
  usage(leader: number): Usage {
    return this.#tracked.get(leader)?.usage ?? { cpuPct: 0, memBytes: 0 };
  }

  /** Reads every tracked tree once. */
  sample(): void {
    for (const tracked of this.#tracked.values()) this.#sampleTree(tracked);
  }

  #sampleTree(tracked: Tracked): void {
    let ticks = 0;
    let rss = 0;
    const seen = new Set<number>();
    const pending = [tracked.leader];
    while (pending.length > 0 && seen.size < 4096) {
      const pid = pending.pop() as number;
      if (seen.has(pid)) continue;
      seen.add(pid);
      const own = processUsage(pid);
      const children = childrenOf(pid);
      if (own) {
        ticks += own.ticks;
        rss += own.rss;
      }
      pending.push(...children);
    }
    const now = { ticks, at: Date.now() };
    const cpu = tracked.last ? cpuPercent(tracked.last, now) : 0;
    tracked.last = now;
    tracked.usage = { cpuPct: Math.round(cpu * 10) / 10, memBytes: rss };
  }
}
