import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { USERS_PER_BLOCK } from '../sandbox/sandbox-users.js';

/** Whether a process of this pid exists (a zombie too, until reaped). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A process as /proc tells it. */
export interface HostProcess {
  readonly pid: number;
  /** Executable name (`Xvfb`, `chromium`, `sleep`, …). */
  readonly name: string;
  readonly uid: number;
  readonly commandLine: string;
}

/** Every process of the host, read from /proc (those that end while it reads are skipped). */
function hostProcesses(): HostProcess[] {
  const found: HostProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      found.push({
        pid: Number(entry),
        name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '',
        uid: Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]),
        commandLine: readFileSync(`/proc/${entry}/cmdline`, 'utf8'),
      });
    } catch {
      // It ended while it was read.
    }
  }
  return found;
}

/** The processes that run as `uid`: a browser's sandbox user is its own. */
export function processesOfUser(uid: number): HostProcess[] {
  return hostProcesses().filter((process) => process.uid === uid);
}

/**
 * Everything a server on `dataDir` runs for its browsers: the processes of its sandbox users
 * (the block kept in its store) and bubblewrap's own (which name an instance of `dataDir`).
 */
export function processesOfServer(dataDir: string): HostProcess[] {
  const store = new DatabaseSync(join(dataDir, 'store.sqlite'), { readOnly: true });
  let base: number;
  try {
    const row = store.prepare("SELECT value FROM settings WHERE key = 'sandbox_uid_base'").get() as
      | { value: string }
      | undefined;
    base = row ? Number(row.value) : Number.NaN;
  } finally {
    store.close();
  }
  return hostProcesses().filter(
    (process) =>
      (process.uid >= base && process.uid < base + USERS_PER_BLOCK) ||
      process.commandLine.includes(`${dataDir}/instances/`),
  );
}

/** The processes whose command line holds `text` (a path only one test's server uses). */
export function processesNaming(text: string): HostProcess[] {
  return hostProcesses().filter((process) => process.commandLine.includes(text));
}
