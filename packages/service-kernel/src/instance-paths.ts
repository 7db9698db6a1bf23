import { posix } from 'node:path';
import { INSTANCE_HOME, refusals } from './messages.js';

/**
 * Resolves a path named on an instance (relative ones from `base`) and refuses with 400 any that
 * lands outside `/home/browser` once `..` is resolved. Links are the engine's to check (`stat`).
 */
export function resolveInstancePath(field: string, path: string, base = INSTANCE_HOME): string {
  const resolved = posix.resolve(base, path);
  if (resolved !== INSTANCE_HOME && !resolved.startsWith(`${INSTANCE_HOME}/`))
    throw refusals.outsideHome(field, path);
  const tooLong = lengthProblem(resolved);
  if (tooLong) throw refusals.nameTooLong(field, tooLong);
  return resolved;
}

/**
 * What makes a path longer than Linux takes (a name past NAME_MAX, the whole past PATH_MAX),
 * in words, or undefined: such a path is the caller's mistake (400), never the file system's.
 */
export function lengthProblem(resolved: string): string | undefined {
  if (Buffer.byteLength(resolved) > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  if (resolved.split('/').some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES))
    return `has a name longer than ${MAX_NAME_BYTES} bytes`;
  return undefined;
}

/** Most bytes of one name in a path, and of a whole path (Linux's NAME_MAX and PATH_MAX - 1). */
export const MAX_NAME_BYTES = 255;
export const MAX_PATH_BYTES = 4095;
