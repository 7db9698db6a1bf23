import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/** What each session (its browser and every process it runs) may use, at most. */
export interface SessionLimits {
  /** Memory, resident and page cache together; past it the kernel kills inside the session. */
  readonly memoryBytes: number;
  /** Processes and threads at once; past it fork fails inside the session. */
  readonly pids: number;
  /** Cores' worth of CPU time (1 = one core, 0.5 = half of one). */
  readonly cpus: number;
}

/** The limits a server has unless told otherwise. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  memoryBytes: 2 * 1024 * 1024 * 1024,
  pids: 1024,
  cpus: 1,
};

type Controller = 'memory' | 'pids' | 'cpu';
const CONTROLLERS: readonly Controller[] = ['memory', 'pids', 'cpu'];

/** Where the cgroup file system is. */
const CGROUP_ROOT = '/sys/fs/cgroup';

/** A CPU quota is given per period of this many microseconds. */
const CPU_PERIOD_US = 100_000;

/** The name of a data directory's own cgroup, under the server's: the same for every run on it. */
export function dataDirGroupName(dataDir: string): string {
  return `xb-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
}

/** One session's cgroup: the files a process writes its pid to, to join it. */
export interface SessionCgroup {
  readonly procsFiles: readonly string[];
}

/** The files that set one controller's limit, and their values, for a version of cgroups. */
function limitFiles(
  version: 1 | 2,
  controller: Controller,
  limits: SessionLimits,
): [string, string][] {
  const files: Record<Controller, [string, string][]> =
    version === 2
      ? {
          memory: [['memory.max', String(limits.memoryBytes)]],
          pids: [['pids.max', String(limits.pids)]],
          cpu: [['cpu.max', `max ${CPU_PERIOD_US}`]],
        }
      : {
          memory: [['memory.limit_in_bytes', String(limits.memoryBytes)]],
          pids: [['pids.max', String(limits.pids)]],
          cpu: [
            ['cpu.cfs_period_us', String(CPU_PERIOD_US)],
            ['cpu.cfs_quota_us', '-1'],
          ],
        };
  // The CPU quota is written by `limitCpu`: at once, or once the browser has started.
  return files[controller];
}

/**
 * The CPU quota of a session, and its burst: what a period left unused may be spent in a later
 * one, up to one period's quota (a screenshot after a quiet spell runs at two cores' speed; over
 * any longer stretch the average stays at the quota). Burst is optional (Linux 5.14 and later).
 */
function cpuFiles(
  version: 1 | 2,
  limits: SessionLimits,
): { quota: [string, string]; burst: [string, string] } {
  const quota = String(Math.max(1_000, Math.round(limits.cpus * CPU_PERIOD_US)));
  return version === 2
    ? { quota: ['cpu.max', `${quota} ${CPU_PERIOD_US}`], burst: ['cpu.max.burst', quota] }
    : { quota: ['cpu.cfs_quota_us', quota], burst: ['cpu.cfs_burst_us', quota] };
}

/** The server's own cgroup per controller, from /proc/self/cgroup. */
function ownCgroups(): { version: 1 | 2; paths: Map<Controller, string> } {
  const lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
  const paths = new Map<Controller, string>();
  if (existsSync(join(CGROUP_ROOT, 'cgroup.controllers'))) {
    const own = lines.find((line) => line.startsWith('0::'))?.slice(3) ?? '/';
    const available = readFileSync(join(CGROUP_ROOT, own, 'cgroup.controllers'), 'utf8');
    for (const controller of CONTROLLERS) {
      if (available.split(/\s+/).includes(controller)) {
        paths.set(controller, join(CGROUP_ROOT, own));
      }
    }
    return { version: 2, paths };
  }
  for (const line of lines) {
    const [, names = '', path = '/'] = line.split(':');
    for (const name of names.split(',')) {
      const controller = CONTROLLERS.find((candidate) => candidate === name);
      const mount = controller && join(CGROUP_ROOT, controller);
      if (controller && mount && existsSync(mount)) paths.set(controller, join(mount, path));
    }
  }
  return { version: 1, paths };
}

/** Sends SIGKILL to every process of a cgroup; how many there were. */
function killMembers(group: string): number {
  const file = join(group, 'cgroup.procs');
  if (!existsSync(file)) return 0;
  const pids = readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // It ended between the look and the kill.
    }
  }
  return pids.length;
}

/**
 * Per-session limits through cgroups (v1, one hierarchy per controller, or v2), where the host
 * lets the server make them: a group of this data directory's own under the server's cgroup,
 * and in it one group per session with its memory, pids and CPU limits. A session's processes
 * join it before bubblewrap starts (`joinArgs`), so nothing they fork escapes it; ending a
 * session kills whatever is left in its group; a next start reaps the groups a crash left.
 */
export class SessionCgroups {
  readonly limits: SessionLimits;
  readonly #version: 1 | 2;
  /** The data directory's group, per controller the server may use. */
  readonly #bases = new Map<Controller, string>();
  readonly #refused = new Map<Controller, string>();

  private constructor(version: 1 | 2, limits: SessionLimits) {
    this.#version = version;
    this.limits = limits;
  }

  /** Finds what the host allows, making the data directory's group in each controller it can. */
  static detect(dataDir: string, limits: SessionLimits): SessionCgroups {
    let found: ReturnType<typeof ownCgroups>;
    try {
      found = ownCgroups();
    } catch {
      found = { version: 1, paths: new Map() }; // No cgroup file system: nothing can be limited.
    }
    const cgroups = new SessionCgroups(found.version, limits);
    const name = dataDirGroupName(dataDir);
    for (const controller of CONTROLLERS) {
      const own = found.paths.get(controller);
      if (!own) {
        cgroups.#refused.set(controller, 'no such controller on this host');
        continue;
      }
      const base = join(own, name);
      try {
        mkdirSync(base, { recursive: true });
        if (found.version === 2) {
          writeFileSync(join(own, 'cgroup.subtree_control'), `+${controller}`);
          writeFileSync(join(base, 'cgroup.subtree_control'), `+${controller}`);
        }
        cgroups.#bases.set(controller, base);
      } catch (error) {
        cgroups.#refused.set(controller, (error as NodeJS.ErrnoException).code ?? 'refused');
      }
    }
    return cgroups;
  }

  /** What is enforced and what the host does not allow, for the start-up line. */
  describe(): { version: string; enforced: string[]; notAllowed: string[] } {
    const { memoryBytes, pids, cpus } = this.limits;
    const label: Record<Controller, string> = {
      memory: `memory ${Math.round(memoryBytes / 1024 / 1024)} MiB`,
      pids: `${pids} processes and threads`,
      cpu: `${cpus} CPU`,
    };
    return {
      version: `cgroup v${this.#version}`,
      enforced: CONTROLLERS.filter((c) => this.#bases.has(c)).map((c) => label[c]),
      notAllowed: [...this.#refused].map(([c, why]) => `${label[c]} (${why})`),
    };
  }

  /**
   * Makes a session's group with its limits; undefined when no controller is allowed. A limit
   * the host refuses for one session is left out for it (and logged by the caller), never fatal.
   * The CPU quota holds from the start when `isCpuLimited`; otherwise from `limitCpu`: a browser's
   * start (Chromium's own processes, no code of the caller's) runs at the host's speed.
   */
  create(sessionId: string, isCpuLimited = true): SessionCgroup | undefined {
    const procsFiles: string[] = [];
    for (const [base, controllers] of this.#byBase()) {
      const group = join(base, sessionId);
      mkdirSync(group, { recursive: true });
      for (const controller of controllers) {
        for (const [file, value] of limitFiles(this.#version, controller, this.limits)) {
          writeFileSync(join(group, file), value);
        }
      }
      procsFiles.push(join(group, 'cgroup.procs'));
    }
    if (isCpuLimited) this.limitCpu(sessionId);
    return procsFiles.length > 0 ? { procsFiles } : undefined;
  }

  /** Puts a session's CPU quota (and its burst, where the host has it) in force. */
  limitCpu(sessionId: string): void {
    const base = this.#bases.get('cpu');
    if (!base) return;
    const group = join(base, sessionId);
    const { quota, burst } = cpuFiles(this.#version, this.limits);
    writeFileSync(join(group, quota[0]), quota[1]);
    try {
      writeFileSync(join(group, burst[0]), burst[1]);
    } catch {
      // No burst on this kernel (or refused): the quota alone holds.
    }
  }

  /** The controllers by the group they live in: one each in v1, all in one in v2. */
  #byBase(): Map<string, Controller[]> {
    const byBase = new Map<string, Controller[]>();
    for (const [controller, base] of this.#bases) {
      byBase.set(base, [...(byBase.get(base) ?? []), controller]);
    }
    return byBase;
  }

  /** Kills whatever is left in a session's group, then removes the group. */
  async remove(sessionId: string): Promise<void> {
    let failure: unknown;
    for (const base of this.#byBase().keys()) {
      const group = join(base, sessionId);
      try {
        for (let attempt = 0; attempt < 100 && killMembers(group) > 0; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } catch (error) {
        // Its members could not be read (the server out of open files, say): an empty group
        // still goes below, and one with members says why it stays.
        failure ??= error;
      }
      try {
        rmdirSync(group);
      } catch (error) {
        // Gone already; anything else is the host's to explain, and the caller tries again.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') failure ??= error;
      }
    }
    if (failure !== undefined && this.has(sessionId)) throw failure;
  }

  /** Whether a session has a group left, in any hierarchy. */
  has(sessionId: string): boolean {
    return [...this.#byBase().keys()].some((base) => existsSync(join(base, sessionId)));
  }

  /** After a crash: every session group an earlier run left is emptied and removed. */
  async reap(): Promise<number> {
    const sessions = this.sessions();
    for (const session of sessions) await this.remove(session);
    return sessions.size;
  }

  /** SIGKILLs every process in every session's group, at once (a shutdown past its deadline). */
  killAll(): void {
    const sessions = this.sessions();
    for (const base of this.#byBase().keys()) {
      for (const session of sessions) killMembers(join(base, session));
    }
  }

  /** The sessions that have a group, in any hierarchy. */
  sessions(): Set<string> {
    const sessions = new Set<string>();
    for (const base of this.#byBase().keys()) {
      for (const entry of readdirSync(base, { withFileTypes: true })) {
        if (entry.isDirectory()) sessions.add(entry.name);
      }
    }
    return sessions;
  }

  /** Removes the data directory's own groups (shutdown; every session's is gone by then). */
  close(): void {
    for (const base of this.#byBase().keys()) {
      try {
        rmdirSync(base);
      } catch {
        // Not empty or gone: a next start of this data directory uses it again.
      }
    }
  }

  /** A session's CPU quota as its group holds it (`max` or `-1` for none), for a test to read. */
  cpuQuotaOf(sessionId: string): string | undefined {
    const base = this.#bases.get('cpu');
    if (!base) return undefined;
    const file = join(base, sessionId, this.#version === 2 ? 'cpu.max' : 'cpu.cfs_quota_us');
    return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  }

  /** The pids in a session's group (of its first controller), for a test to read. */
  membersOf(sessionId: string): number[] {
    const base = [...this.#bases.values()][0];
    if (!base) return [];
    const file = join(base, sessionId, 'cgroup.procs');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  }
}

/**
 * The command that starts `command args` inside a session's cgroup: a shell writes its own pid
 * to each group's cgroup.procs, then becomes the command (same pid, same process group), so the
 * command and all it forks are in the session's groups from their first instruction.
 */
export function joinArgs(
  cgroup: SessionCgroup | undefined,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  if (!cgroup) return { command, args: [...args] };
  const script =
    'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';
  return {
    command: '/bin/sh',
    args: [
      '-c',
      script,
      'xb-join',
      String(cgroup.procsFiles.length),
      ...cgroup.procsFiles,
      command,
      ...args,
    ],
  };
}
