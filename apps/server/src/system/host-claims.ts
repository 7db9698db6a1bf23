import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from './executables.js';

/**
 * What the servers of one host share and must not take twice: the session subnets, the names of
 * their nftables tables and network namespaces, the blocks of sandbox users. Several servers may
 * run on one host (a cluster's nodes, a test run's files), started at the same moment; each sees
 * a resource free, then each takes it, unless the look and the take happen under one lock.
 *
 * The lock is the kernel's (`flock(2)` on a file of a folder of the host's runtime directory,
 * held by a small `flock` process whose standard input is the server's pipe): it is released the
 * moment its holder ends, a crash included, so no stale lock ever waits for a person.
 *
 * A claim is a file named after the resource, holding who took it (process, its start time, data
 * directory). A claim whose process has ended (or whose id another process reuses) is free: a
 * crashed server's claims need no clean-up for others to take them, and its next start finds them
 * by its data directory, to reap what it left.
 */

/** Who holds a claim. */
export interface ClaimHolder {
  readonly pid: number;
  /** The process's start time (clock ticks since boot, /proc/<pid>/stat): tells a reused pid. */
  readonly startTime: string;
  readonly dataDir: string;
}

/** How long a server waits for another's lock, in milliseconds, before it says who holds it. */
const LOCK_WAIT_MS = 60_000;

/** The folder the servers of this host coordinate in (tmpfs: claims go with a reboot, as the resources do). */
export function hostClaimsFolder(): string {
  if (process.getuid?.() === 0) return '/run/xb-server';
  const runtime = process.env.XDG_RUNTIME_DIR;
  return runtime ? join(runtime, 'xb-server') : join(tmpdir(), `xb-server-${process.getuid?.()}`);
}

/** This process's start time, as /proc/<pid>/stat gives it; undefined when it has ended. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command's name (field 2) may hold spaces and parentheses: count after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** A claim one server took, as a person reads it in an error. */
export function describeHolder(holder: ClaimHolder): string {
  return `the xb-server of process ${holder.pid} (data directory ${holder.dataDir})`;
}

export class HostClaims {
  readonly #folder: string;
  readonly #me: ClaimHolder;
  readonly #mine = new Set<string>();

  constructor(dataDir: string, folder = hostClaimsFolder()) {
    this.#folder = folder;
    this.#me = {
      pid: process.pid,
      startTime: processStartTime(process.pid) ?? '',
      dataDir,
    };
    mkdirSync(join(folder, 'claims'), { recursive: true, mode: 0o700 });
  }

  /** The host's coordination folder. */
  get folder(): string {
    return this.#folder;
  }

  /**
   * Runs `work` holding the host's lock: no other server of the host looks at or takes a claim
   * meanwhile. Waits for another holder, for a minute at most, then fails saying who holds it.
   */
  async withLock<T>(work: () => Promise<T>): Promise<T> {
    const holder = await this.#lock();
    try {
      return await work();
    } finally {
      holder.stdin?.end();
      // A holder that fails instead of exiting no longer holds the lock either.
      if (holder.exitCode === null && holder.signalCode === null)
        await once(holder, 'exit').catch(() => undefined);
    }
  }

  /** The live server other than this one that holds `name`, if any (call under the lock). */
  heldByOther(name: string): ClaimHolder | undefined {
    const holder = this.#read(name);
    if (!holder || !isLive(holder)) return undefined;
    // Servers of one process (embedded, or a test's) are told apart by their data directories.
    return this.#isMine(holder) ? undefined : holder;
  }

  /** Takes `name` for this server (call under the lock, after `heldByOther` said it is free). */
  take(name: string): void {
    const path = this.#path(name);
    const temporary = `${path}.${process.pid}`;
    const file = openSync(temporary, 'w', 0o600);
    try {
      writeSync(file, `${JSON.stringify(this.#me)}\n`);
    } finally {
      closeSync(file);
    }
    renameSync(temporary, path);
    this.#mine.add(name);
  }

  /** Gives `name` back (it is free for the others at once). */
  release(name: string): void {
    if (!this.#mine.delete(name)) return;
    const holder = this.#read(name);
    if (holder && this.#isMine(holder)) rmSync(this.#path(name), { force: true });
  }

  #isMine(holder: ClaimHolder): boolean {
    return (
      holder.pid === this.#me.pid &&
      holder.startTime === this.#me.startTime &&
      holder.dataDir === this.#me.dataDir
    );
  }

  /** Gives back every claim this server took (synchronously: also for a server killed past its deadline). */
  releaseAll(): void {
    for (const name of [...this.#mine]) this.release(name);
  }

  /**
   * The claims (names starting with `prefix`) whose servers ended without giving them back
   * (killed, crashed): what they took may still be on the host, and nothing of theirs runs (their
   * sandboxes die with them). Call under the lock, reap what they name, then `forget` them.
   */
  left(prefix: string): string[] {
    return this.#names()
      .filter((name) => name.startsWith(prefix))
      .filter((name) => {
        const holder = this.#read(name);
        return holder !== undefined && !isLive(holder);
      });
  }

  /** Who took `name` (live or not), if anyone. */
  holderOf(name: string): ClaimHolder | undefined {
    return this.#read(name);
  }

  /** Whether a live server (this one included) holds a claim for data directory `dataDir`. */
  isDataDirLive(dataDir: string): boolean {
    return this.#names().some((name) => {
      const holder = this.#read(name);
      return holder !== undefined && holder.dataDir === dataDir && isLive(holder);
    });
  }

  /** Removes a claim whose server has ended (after what it named was reaped). */
  forget(name: string): void {
    const holder = this.#read(name);
    if (holder && !isLive(holder)) rmSync(this.#path(name), { force: true });
  }

  #names(): string[] {
    try {
      return readdirSync(join(this.#folder, 'claims')).filter((name) => !name.includes('.'));
    } catch {
      return [];
    }
  }

  #path(name: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`not a claim name: ${name}`);
    return join(this.#folder, 'claims', name);
  }

  #read(name: string): ClaimHolder | undefined {
    try {
      const parsed = JSON.parse(readFileSync(this.#path(name), 'utf8')) as Partial<ClaimHolder>;
      if (
        typeof parsed.pid !== 'number' ||
        typeof parsed.startTime !== 'string' ||
        typeof parsed.dataDir !== 'string'
      )
        return undefined;
      return parsed as ClaimHolder;
    } catch {
      return undefined;
    }
  }

  /** Starts a `flock` holding the host's lock; resolves once it holds it. */
  async #lock(): Promise<ChildProcess> {
    const flock = findExecutable('flock', ['/usr/bin', '/bin']);
    if (!flock)
      throw new Error('flock is needed to share this host with other servers (util-linux)');
    const lockFile = join(this.#folder, 'lock');
    const owner = join(this.#folder, 'lock-owner');
    // The lock's file itself is only opened; the folder is the server's.
    chmodSync(this.#folder, 0o700);
    const child = spawn(
      flock,
      [
        '--exclusive',
        '--timeout',
        String(LOCK_WAIT_MS / 1000),
        lockFile,
        '/bin/sh',
        '-c',
        // Says it holds the lock, then holds it until the server closes its input (or ends).
        'echo locked; exec cat >/dev/null',
      ],
      { stdio: ['pipe', 'pipe', 'ignore'], env: { PATH: '/usr/bin:/bin' } },
    );
    const held = await new Promise<boolean>((resolve) => {
      child.stdout?.once('data', () => resolve(true));
      child.once('exit', () => resolve(false));
      child.once('error', () => resolve(false));
    });
    child.stdout?.destroy();
    if (!held) {
      let who = 'another xb-server of this host';
      try {
        const holder = JSON.parse(readFileSync(owner, 'utf8')) as ClaimHolder;
        if (isLive(holder)) who = describeHolder(holder);
      } catch {
        // No word of the holder: said generally.
      }
      throw new Error(
        `the host's lock (${lockFile}) was held by ${who} for over ${LOCK_WAIT_MS / 1000} s: it shares this host's subnets and names with that server; stop it or wait`,
      );
    }
    const file = openSync(owner, 'w', 0o600);
    try {
      writeSync(file, `${JSON.stringify(this.#me)}\n`);
    } finally {
      closeSync(file);
    }
    return child;
  }
}

function isLive(holder: ClaimHolder): boolean {
  return processStartTime(holder.pid) === holder.startTime;
}
