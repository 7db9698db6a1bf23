import { execFile } from 'node:child_process';
import { chmodSync, lchownSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SandboxUser } from '../sandbox/bubblewrap.js';

/** The trees of files an app run makes and the server keeps: owners, modes, sizes, copies. */

/** Gives every file and folder under `root` (links too, never followed) to `user`. */
export function chownTree(root: string, user: SandboxUser): void {
  lchownSync(root, user.uid, user.gid);
  for (const entry of readdirSync(root, { recursive: true }) as string[]) {
    lchownSync(join(root, entry), user.uid, user.gid);
  }
}

/**
 * Makes every file and folder under `root` readable by all and writable by its owner only, with
 * no set-user-id, set-group-id or sticky bit: the server's own copies of what a sandbox made
 * (its code chose the modes), which every run's user reads and none may change.
 */
export function plainModes(root: string): void {
  for (const path of [
    root,
    ...(readdirSync(root, { recursive: true }) as string[]).map((entry) => join(root, entry)),
  ]) {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) continue;
    chmodSync(path, (stat.mode & 0o755) | (stat.isDirectory() ? 0o555 : 0o444));
  }
}

/** The bytes the files under `root` take on disk (their allocated blocks), links not followed. */
export function treeBytes(root: string): number {
  let bytes = lstatSync(root).blocks * 512;
  for (const entry of readdirSync(root, { recursive: true }) as string[]) {
    bytes += lstatSync(join(root, entry)).blocks * 512;
  }
  return bytes;
}

const execFileAsync = promisify(execFile);

/**
 * Copies the tree at `from` to `to` (which must not exist) as it is on disk: sparse files stay
 * sparse (GNU cp finds their holes), symbolic links are copied as links, modes are kept.
 */
export async function copyTree(from: string, to: string): Promise<void> {
  await execFileAsync('cp', ['-R', '-P', '--preserve=mode', '--sparse=always', '--', from, to]);
}
