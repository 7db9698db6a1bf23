import { existsSync, realpathSync } from 'node:fs';
import { posix, relative, resolve, sep } from 'node:path';
import { ServiceError } from '@x/service-kernel';
import { INSTANCE_HOME } from '../sandbox/bubblewrap.js';

/** A path on an instance and where it is on the host. */
export interface InstancePath {
  /** As the instance sees it: `/home/browser/…`. */
  readonly instancePath: string;
  readonly hostPath: string;
  readonly exists: boolean;
}

/**
 * Resolves a path named on the instance (relative ones from /home/browser) to the host folder
 * that backs it. Outside /home/browser once `..` and links are resolved is 400 `field`, never a
 * look at the host.
 */
export function resolveOnInstance(home: string, path: string, field: string): InstancePath {
  const outside = () =>
    new ServiceError('bad_request', `${field} must be inside ${INSTANCE_HOME}.`, {
      details: [
        { code: 'invalid_input', message: `body.${field}: ${path} is outside ${INSTANCE_HOME}` },
      ],
    });
  const instancePath = posix.resolve(INSTANCE_HOME, path);
  if (instancePath !== INSTANCE_HOME && !instancePath.startsWith(`${INSTANCE_HOME}/`))
    throw outside();
  const hostPath = resolve(home, posix.relative(INSTANCE_HOME, instancePath));
  if (!existsSync(hostPath)) return { instancePath, hostPath, exists: false };
  const inside = relative(realpathSync(home), realpathSync(hostPath));
  if (inside.startsWith('..') || inside.startsWith(sep)) throw outside();
  return {
    instancePath: posix.join(INSTANCE_HOME, inside.split(sep).join('/')),
    hostPath: realpathSync(hostPath),
    exists: true,
  };
}
