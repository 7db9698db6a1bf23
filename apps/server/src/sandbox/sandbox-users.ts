import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { SandboxUser } from './bubblewrap.js';

/** How many users one data directory's block holds: more than browsers ever run at once. */
export const USERS_PER_BLOCK = 65_536;

/** Blocks start at 2^30: far above any account a distribution makes, below the 2^32 − 1 limit. */
const FIRST_BLOCK_UID = 2 ** 30;
const BLOCK_COUNT = 2 ** 14;

/** Picks a block of users for a new data directory (kept in its store from then on). */
export function newUserBlockBase(): number {
  return FIRST_BLOCK_UID + randomInt(BLOCK_COUNT) * USERS_PER_BLOCK;
}

/**
 * The unprivileged users sandboxes run as when the server runs as root: one of its own for every
 * running browser (its Chromium and its processes), from a block that belongs to this data
 * directory, so that two servers on one host never share one and a browser can neither signal
 * nor read another's processes or files, even outside its sandbox.
 */
export class SandboxUsers {
  readonly #base: number;
  readonly #taken = new Set<number>();

  constructor(base: number) {
    this.#base = base;
  }

  /** Whether sandboxes switch to a user of their own: only a server that runs as root can. */
  static get canSwitchUser(): boolean {
    return process.getuid?.() === 0;
  }

  /** A user no running browser has. */
  take(): SandboxUser {
    for (let offset = 0; offset < USERS_PER_BLOCK; offset++) {
      const uid = this.#base + offset;
      if (this.#taken.has(uid)) continue;
      this.#taken.add(uid);
      return { uid, gid: uid };
    }
    throw new Error('Every sandbox user of this data directory is taken.');
  }

  /** Gives a user back once nothing of its browser runs any more. */
  give(user: SandboxUser): void {
    this.#taken.delete(user.uid);
  }

  /** Whether `uid` belongs to this data directory's block. */
  owns(uid: number): boolean {
    return uid >= this.#base && uid < this.#base + USERS_PER_BLOCK;
  }

  /** Pids of the processes that run as one of `uids` (all of the block when none are named). */
  processes(uid?: number): number[] {
    const pids: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let status: string;
      try {
        status = readFileSync(`/proc/${entry}/status`, 'utf8');
      } catch {
        continue; // It ended while the list was read.
      }
      const real = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      if (uid === undefined ? this.owns(real) : real === uid) pids.push(Number(entry));
    }
    return pids;
  }

  /** Sends SIGKILL to every process of a user (or of the whole block); how many there were. */
  signalAll(uid?: number): number {
    const pids = this.processes(uid);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It ended between the look and the kill.
      }
    }
    return pids.length;
  }

  /** Kills every process of a user (or of the whole block) and waits until none is left. */
  async killAll(uid?: number): Promise<void> {
    for (let attempt = 0; attempt < 100 && this.signalAll(uid) > 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
