import { lchownSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxUser } from '../sandbox/bubblewrap.js';

/**
 * A browser's own folder under the data directory, which the instance sees as `/home/browser`:
 * Chromium's profile (`.config/chromium`) and `Downloads` are inside it.
 */
export interface InstanceDirectory {
  readonly root: string;
  /** The host folder that is `/home/browser` (the root itself). */
  readonly home: string;
  readonly downloads: string;
  readonly profile: string;
}

/** Where a browser's instance directory is. */
export function instanceRoot(dataDir: string, sessionId: string): string {
  return join(dataDir, 'instances', sessionId);
}

/** Chromium's profile, relative to the home. */
export const PROFILE_FOLDER = '.config/chromium';

/**
 * Creates the instance directory of a browser (0700), owned by the sandbox user it runs as when
 * there is one: nobody else on the host can enter it.
 */
export function createInstanceDirectory(
  dataDir: string,
  sessionId: string,
  user: SandboxUser | undefined,
): InstanceDirectory {
  const instances = join(dataDir, 'instances');
  mkdirSync(instances, { recursive: true, mode: 0o700 });
  const root = instanceRoot(dataDir, sessionId);
  const directory = {
    root,
    home: root,
    downloads: join(root, 'Downloads'),
    profile: join(root, PROFILE_FOLDER),
  };
  const created = [root, directory.downloads, join(root, '.config'), directory.profile];
  for (const folder of created) mkdirSync(folder, { mode: 0o700 });
  // Nothing can be in them yet but what was just made: no link to follow.
  if (user) for (const folder of created) lchownSync(folder, user.uid, user.gid);
  return directory;
}

/** Removes an instance directory and everything in it (links are removed, never followed). */
export function removeInstanceDirectory(root: string): void {
  rmSync(root, { recursive: true, force: true });
}
