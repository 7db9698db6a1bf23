import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmdirSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { refusals } from '@x/service-kernel';
import { runTool } from '../system/tool-runner.js';
import type { SandboxUser } from './bubblewrap.js';

const run = (file: string, args: readonly string[]) => runTool(file, args);

/** The disk budget a session has unless told otherwise. */
export const DEFAULT_SESSION_DISK_BYTES = 1024 * 1024 * 1024;

/** Where the programs are (util-linux and e2fsprogs, in every Debian). */
const TOOLS = {
  fallocate: '/usr/bin/fallocate',
  mkfs: '/usr/sbin/mkfs.ext4',
  mount: '/usr/bin/mount',
  umount: '/usr/bin/umount',
} as const;

/** How small a disk the start-up probe makes (ext4's least is about 1 MiB). */
const PROBE_BYTES = 8 * 1024 * 1024;

/** The image file that backs a home: next to its folder, never inside what the session sees. */
export function imageOf(root: string): string {
  return `${root}.disk`;
}

/** The first line a failed tool printed, or its error's message. */
function reasonOf(error: unknown): string {
  const stderr = (error as { stderr?: string }).stderr?.trim();
  return (stderr || (error as Error).message).split('\n')[0] ?? 'unknown';
}

/** Mount points under `folder`, deepest first, from the kernel's table (escapes decoded). */
export function mountsUnder(folder: string): string[] {
  const prefix = `${folder}/`;
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .map((path) =>
      path.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(Number.parseInt(octal, 8))),
    )
    .filter((path) => path.startsWith(prefix))
    .sort((a, b) => b.length - a.length);
}

/** Whether a host lets the server give each session a disk: the disks, or why not. */
export type DiskDetection = { readonly disks: InstanceDisks } | { readonly reason: string };

/**
 * A disk budget per session: each browser's home (`/home/browser`, with its profile and
 * downloads) is a file system of its own, an ext4 image of the budget's size mounted on the
 * instance folder. The image is allocated in full when the browser starts, so the space is
 * reserved: a session that writes past it gets ENOSPC inside its own disk and nobody else
 * notices; the data disk cannot be filled through a session. Needs root (to mount) and a data
 * disk that can allocate files (any local file system); `detect` says why not otherwise.
 */
export class InstanceDisks {
  readonly bytes: number;

  private constructor(bytes: number) {
    this.bytes = bytes;
  }

  /**
   * Disks of `bytes` each, when this host lets the server make them: tried once for real with a
   * small image in the data directory. The reason when not.
   */
  static async detect(dataDir: string, bytes: number): Promise<DiskDetection> {
    if (process.getuid?.() !== 0) return { reason: 'needs a server run as root, to mount' };
    const missing = Object.values(TOOLS).filter((path) => !existsSync(path));
    if (missing.length > 0) return { reason: `${missing.join(', ')} not installed` };
    const folder = join(dataDir, 'instances');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const probe = join(folder, '.probe');
    const disks = new InstanceDisks(bytes);
    try {
      await disks.remove(probe); // One a crash left half-made.
      mkdirSync(probe, { mode: 0o700 });
      await disks.#make(probe, PROBE_BYTES, undefined);
      return { disks };
    } catch (error) {
      return { reason: reasonOf(error) };
    } finally {
      // A probe left behind is removed by the next start's probe, before it makes its own.
      await disks.remove(probe).catch(() => undefined);
    }
  }

  /** A description for the start-up line. */
  describe(): string {
    return `disk ${Math.round(this.bytes / 1024 / 1024)} MiB`;
  }

  /**
   * Mounts a new disk of the budget's size on `root` (an empty folder), owned by `user`, 0700.
   * A data disk without room for it is 507; whatever was made before a failure is undone.
   */
  async mount(root: string, user: SandboxUser | undefined): Promise<void> {
    try {
      await this.#make(root, this.bytes, user);
    } catch (error) {
      // The mount's own failure is the one told; the caller's clean-up removes the disk again.
      await this.remove(root).catch(() => undefined);
      if (/no space left/i.test(reasonOf(error)))
        throw refusals.insufficientStorage('start a browser');
      throw error;
    }
  }

  async #make(root: string, bytes: number, user: SandboxUser | undefined): Promise<void> {
    const image = imageOf(root);
    closeSync(openSync(image, 'wx', 0o600)); // Only the server reads it.
    await run(TOOLS.fallocate, ['-l', String(bytes), image]);
    const owner = user ? `${user.uid}:${user.gid}` : '0:0';
    // No journal (a home does not outlive a crash of its session), nothing reserved for root,
    // inode tables left for the kernel to use as they are (they start out unused).
    await run(TOOLS.mkfs, [
      '-q',
      '-F',
      '-O',
      '^has_journal',
      '-m',
      '0',
      '-E',
      `lazy_itable_init=1,nodiscard,root_owner=${owner}`,
      image,
    ]);
    await run(TOOLS.mount, [
      '-t',
      'ext4',
      '-o',
      'loop,nosuid,nodev,noatime,noinit_itable',
      image,
      root,
    ]);
    chmodSync(root, 0o700);
    rmdirSync(join(root, 'lost+found'));
  }

  /**
   * Unmounts the disk on `root` (lazily when something still holds it, though every process of
   * the session ended first), then removes its image and the folder.
   */
  async remove(root: string): Promise<void> {
    if (mountsUnder(root.slice(0, root.lastIndexOf('/'))).includes(root)) {
      await run(TOOLS.umount, [root]).catch(() => run(TOOLS.umount, ['--lazy', root]));
    }
    // Off the event loop: freeing a used image's blocks takes the host's file system tens of
    // milliseconds, which every session's traffic would wait out.
    await rm(imageOf(root), { force: true });
    await rm(root, { recursive: true, force: true });
  }

  /**
   * Unmounts every disk under the instances folder at once (lazily: what still holds one lets go
   * as it ends): after a crash, what the dead run left; past the shutdown deadline, what is up.
   */
  static reap(dataDir: string): number {
    const mounts = existsSync('/proc/self/mountinfo')
      ? mountsUnder(join(dataDir, 'instances'))
      : [];
    for (const mount of mounts) execFileSync(TOOLS.umount, ['--lazy', mount], { stdio: 'ignore' });
    return mounts.length;
  }
}
