import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sandboxArgs } from '../sandbox/bubblewrap.js';
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

/** How long a sandbox probe's answer is reused: a probe is a process, a scrape may come often. */
const SANDBOX_PROBE_MS = 60_000;
let sandboxProbe: { at: number; bwrap: string; reason: string | undefined } | undefined;

/** Who a probe sandbox runs as when the server is root, as a session's would: nobody. */
const PROBE_USER = { uid: 65534, gid: 65534 };

/**
 * Whether bubblewrap can make a sandbox here, as this server makes a session's (its namespaces,
 * its own /proc, /dev and /tmp, the drop to an unprivileged user when it runs as root), with an
 * empty folder of the data directory as its home: a host that forbids user namespaces to an
 * unprivileged server, or a container whose /proc cannot be mounted again, has bwrap installed
 * and still starts no browser. Nothing to say when that folder cannot be made: the data
 * directory's own check says why.
 */
async function sandboxReason(bwrap: string, dataDir: string): Promise<string | undefined> {
  if (sandboxProbe?.bwrap === bwrap && Date.now() - sandboxProbe.at < SANDBOX_PROBE_MS)
    return sandboxProbe.reason;
  const home = join(dataDir, 'sandbox-probe');
  try {
    await mkdir(home, { recursive: true, mode: 0o700 });
  } catch {
    return undefined;
  }
  const user = process.getuid?.() === 0 ? PROBE_USER : undefined;
  return new Promise((resolve) => {
    execFile(
      bwrap,
      sandboxArgs({ home, shareNetwork: false, user }, 'true', []),
      { timeout: 5_000 },
      (error, _stdout, stderr) => {
        const reason = error
          ? `bubblewrap cannot make a sandbox here (${(stderr.trim().split('\n')[0] ?? '') || error.message})`
          : undefined;
        sandboxProbe = { at: Date.now(), bwrap, reason };
        resolve(reason);
      },
    );
  });
}

/**
 * What keeps the server from serving sessions now, one reason each; empty when it can: Chromium,
 * bubblewrap and ffmpeg found (looked up again, so installing one makes the server ready without
 * a restart), bubblewrap able to make a sandbox as this user (probed at most once a minute), the data directory writable (a file is written and removed), and at least the free
 * space a new browser needs.
 */
export async function notReadyReasons(targets: ReadinessTargets): Promise<string[]> {
  const reasons: string[] = [];
  const tools = findSystemTools();
  if (!(await isExecutable(targets.chromePath)))
    reasons.push(`Chromium not found at ${targets.chromePath} (set CHROME_PATH)`);
  if (!(await isExecutable(tools.bwrap))) reasons.push('bubblewrap (bwrap) not found on PATH');
  else {
    const reason = await sandboxReason(tools.bwrap as string, targets.dataDir);
    if (reason) reasons.push(reason);
  }
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
