import { statfsSync } from 'node:fs';
import { refusals } from '@x/service-kernel';

/** Free space a new browser needs in the data directory: its profile, caches and downloads. */
export const BROWSER_FREE_BYTES = 256 * 1024 * 1024;

/** Free space a new recording needs: a few minutes of video. */
export const RECORDING_FREE_BYTES = 64 * 1024 * 1024;

/** Bytes an unprivileged process may still write on the file system holding `path`. */
export function freeBytes(path: string): number {
  const stats = statfsSync(path);
  return stats.bavail * stats.bsize;
}

/**
 * 507 before anything is started when the disk holding `path` has less than `bytes` free: a
 * browser or a recording that would fail half-way on a full disk is not begun at all.
 */
export function assertFreeSpace(path: string, bytes: number, what: string): void {
  if (freeBytes(path) < bytes) throw refusals.insufficientStorage(what);
}
