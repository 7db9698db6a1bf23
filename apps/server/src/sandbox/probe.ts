import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxUser, sandboxArgs } from './bubblewrap.js';

/**
 * Whether Chromium's own renderer sandbox can work inside ours: it needs to make user, PID and
 * network namespaces as an unprivileged user, which some hosts forbid (a sysctl, a container).
 * Tried once, as a browser would run: in a sandbox, as a sandbox user.
 */
export function canNestNamespaces(bubblewrap: string, user: SandboxUser | undefined): boolean {
  const home = mkdtempSync(join(tmpdir(), 'xb-probe-'));
  try {
    if (user) chownSync(home, user.uid, user.gid);
    const result = spawnSync(
      bubblewrap,
      sandboxArgs({ home, shareNetwork: true, user }, '/usr/bin/unshare', [
        '--user',
        '--pid',
        '--net',
        '--fork',
        '/bin/true',
      ]),
      { stdio: 'ignore', timeout: 10_000, env: { PATH: '/usr/bin:/bin' } },
    );
    return result.status === 0;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
