import { chmodSync, lchownSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
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

/** Makes the (empty, 0700) folder of a browser's instance directory; its path. */
export function makeInstanceRoot(dataDir: string, sessionId: string): string {
  mkdirSync(join(dataDir, 'instances'), { recursive: true, mode: 0o700 });
  const root = instanceRoot(dataDir, sessionId);
  mkdirSync(root, { mode: 0o700 });
  return root;
}

/**
 * Makes the folders of an instance directory in its root (a plain folder, or a disk of its own
 * mounted there), owned by the sandbox user it runs as when there is one, 0700: nobody else on
 * the host can enter it.
 */
export function furnishInstanceDirectory(
  root: string,
  user: SandboxUser | undefined,
): InstanceDirectory {
  const directory = {
    root,
    home: root,
    downloads: join(root, 'Downloads'),
    profile: join(root, PROFILE_FOLDER),
  };
  const made = [directory.downloads, join(root, '.config'), directory.profile];
  for (const folder of made) mkdirSync(folder, { mode: 0o700 });
  chmodSync(root, 0o700);
  // Nothing can be in them yet but what was just made: no link to follow.
  if (user) for (const folder of [root, ...made]) lchownSync(folder, user.uid, user.gid);
  return directory;
}

/** Creates the instance directory of a browser on the data disk itself. */
export function createInstanceDirectory(
  dataDir: string,
  sessionId: string,
  user: SandboxUser | undefined,
): InstanceDirectory {
  return furnishInstanceDirectory(makeInstanceRoot(dataDir, sessionId), user);
}

/**
 * Removes an instance directory and everything in it (links are removed, never followed), off
 * the event loop: a used profile is thousands of files.
 */
export function removeInstanceDirectory(root: string): Promise<void> {
  return rm(root, { recursive: true, force: true });
}
