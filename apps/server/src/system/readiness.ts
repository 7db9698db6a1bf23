import { constants } from 'node:fs';
import { access, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findSystemTools } from './executables.js';
import { BROWSER_FREE_BYTES, freeBytes } from './free-space.js';

/** What the readiness check looks at: where Chromium is, and the data directory. */
export interface ReadinessTargets {
  readonly chromePath: string;
  readonly dataDir: string;
}

async function isExecutable(path: string | undefined): Promise<boolean> {
  if (!path) return false;
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * What keeps the server from serving sessions now, one reason each; empty when it can: Chromium,
 * bubblewrap and ffmpeg found (looked up again, so installing one makes the server ready without
 * a restart), the data directory writable (a file is written and removed), and at least the free
 * space a new browser needs.
 */
export async function notReadyReasons(targets: ReadinessTargets): Promise<string[]> {
  const reasons: string[] = [];
  const tools = findSystemTools();
  if (!(await isExecutable(targets.chromePath)))
    reasons.push(`Chromium not found at ${targets.chromePath} (set CHROME_PATH)`);
  if (!(await isExecutable(tools.bwrap))) reasons.push('bubblewrap (bwrap) not found on PATH');
  if (!(await isExecutable(tools.ffmpeg))) reasons.push('ffmpeg not found on PATH');
  const probe = join(targets.dataDir, `.ready-${process.pid}`);
  try {
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    reasons.push(
      `the data directory ${targets.dataDir} is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  try {
    const free = freeBytes(targets.dataDir);
    if (free < BROWSER_FREE_BYTES) {
      reasons.push(
        `the disk of the data directory is full: ${Math.floor(free / 1024 / 1024)} MiB free, a browser needs ${BROWSER_FREE_BYTES / 1024 / 1024} MiB`,
      );
    }
  } catch (error) {
    reasons.push(`the data directory's disk cannot be read (${(error as Error).message})`);
  }
  return reasons;
}
