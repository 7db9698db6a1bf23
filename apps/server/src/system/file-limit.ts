import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The most open files the server asks for: plenty for every browser's pipes and sockets. */
const WANTED = 1 << 20;

/** The process's open-files limit, soft and hard, as /proc says it. */
export function fileLimit(): { soft: number; hard: number } {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('Max open files'));
  const [soft, hard] = (line?.split(/\s{2,}/).slice(1, 3) ?? []).map((value) =>
    value === 'unlimited' ? Number.POSITIVE_INFINITY : Number(value),
  );
  return { soft: soft ?? 0, hard: hard ?? 0 };
}

/**
 * Raises the server's own open-files limit as far as it may, once at start: Node takes its soft
 * limit up to the hard one; a root server takes the hard one up too (to what the kernel allows
 * a process, `fs.nr_open`, at most 2^20), with util-linux's `prlimit`. What it ends with, and
 * why it could not go further, for the start-up log.
 */
export function raiseFileLimit(prlimit: string | undefined): {
  readonly soft: number;
  readonly hard: number;
  readonly note?: string;
} {
  const before = fileLimit();
  const isRoot = process.getuid?.() === 0;
  let ceiling = before.hard;
  if (isRoot) {
    const nrOpen = Number(readFileSync('/proc/sys/fs/nr_open', 'utf8').trim());
    ceiling = Math.max(before.hard, Math.min(nrOpen, WANTED));
  }
  if (before.soft >= ceiling) return before;
  if (!prlimit) return { ...before, note: 'prlimit (util-linux) is not installed' };
  try {
    execFileSync(prlimit, ['--pid', String(process.pid), `--nofile=${ceiling}:${ceiling}`], {
      stdio: 'ignore',
    });
  } catch (error) {
    return { ...before, note: `prlimit failed: ${(error as Error).message}` };
  }
  return fileLimit();
}
