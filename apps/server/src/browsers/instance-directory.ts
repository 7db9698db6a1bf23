import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A browser's own folder under the data directory: `home` is what the instance sees as
 * `/home/browser` (with `Downloads`), `profile` is Chromium's user data.
 */
export interface InstanceDirectory {
  readonly root: string;
  readonly home: string;
  readonly downloads: string;
  readonly profile: string;
}

/** Where a browser's instance directory is. */
export function instanceRoot(dataDir: string, sessionId: string): string {
  return join(dataDir, 'instances', sessionId);
}

/** Creates the instance directory of a browser. */
export function createInstanceDirectory(dataDir: string, sessionId: string): InstanceDirectory {
  const root = instanceRoot(dataDir, sessionId);
  const home = join(root, 'home');
  const directory = {
    root,
    home,
    downloads: join(home, 'Downloads'),
    profile: join(root, 'profile'),
  };
  mkdirSync(directory.downloads, { recursive: true, mode: 0o700 });
  mkdirSync(directory.profile, { recursive: true, mode: 0o700 });
  return directory;
}

/** Removes an instance directory and everything in it. */
export function removeInstanceDirectory(root: string): void {
  rmSync(root, { recursive: true, force: true });
}
