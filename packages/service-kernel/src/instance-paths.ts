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
  return resolved;
}
