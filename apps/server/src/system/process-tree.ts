import { readdirSync, readFileSync } from 'node:fs';

/**
 * Reads a /proc file, or undefined when the process is gone. Synchronously: a /proc read is a
 * few microseconds of the kernel's, far less than an asynchronous read's round trip through the
 * thread pool, so a walk over many processes costs least this way.
 */
export function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // It ended while it was read.
  }
}

/**
 * The children of a process, from its threads' `children` files (any thread may fork: Chromium
 * starts its renderers from one of its own): no scan of all of /proc.
 */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // It ended.
  }
  return tasks.flatMap((task) =>
    (readProc(`/proc/${pid}/task/${task}/children`) ?? '').split(' ').filter(Boolean).map(Number),
  );
}

/** Every process below `pid` (not itself), at most `limit` of them, parents before children. */
export function descendantsOf(pid: number, limit = 65_536): number[] {
  const found: number[] = [];
  const seen = new Set([pid]);
  const pending = childrenOf(pid);
  while (pending.length > 0 && found.length < limit) {
    const next = pending.shift() as number;
    if (seen.has(next)) continue;
    seen.add(next);
    found.push(next);
    pending.push(...childrenOf(next));
  }
  return found;
}

/**
 * SIGKILLs every process below `pid`, again until none is found (a process may fork while the
 * tree is read); how many were signalled. Synchronous: the last thing a server does before it
 * exits past its deadline.
 */
export function killDescendants(pid: number): number {
  let killed = 0;
  for (let round = 0; round < 5; round++) {
    const found = descendantsOf(pid);
    if (found.length === 0) break;
    for (const child of found) {
      try {
        process.kill(child, 'SIGKILL');
        killed++;
      } catch {
        // It ended between the look and the kill.
      }
    }
  }
  return killed;
}
