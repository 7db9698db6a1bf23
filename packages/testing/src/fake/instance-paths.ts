import { posix } from 'node:path';
import { ServiceError } from '@x/service-kernel';
import { INSTANCE_HOME } from './browsers.js';

/**
 * Resolves a path on the instance (relative ones from `base`), refusing with 400 any that lands
 * outside `/home/browser` once `..` is resolved.
 */
export function resolveInstancePath(
  field: string,
  path: string,
  base: string = INSTANCE_HOME,
): string {
  const resolved = posix.resolve(base, path);
  if (resolved !== INSTANCE_HOME && !resolved.startsWith(`${INSTANCE_HOME}/`)) {
    throw new ServiceError('bad_request', `${field} must be inside ${INSTANCE_HOME}.`, {
      details: [
        { code: 'invalid_input', message: `body.${field}: ${path} is outside ${INSTANCE_HOME}` },
      ],
    });
  }
  return resolved;
}
