import { existsSync, realpathSync, statSync } from 'node:fs';
import { posix, relative, resolve, sep } from 'node:path';
import { INSTANCE_HOME, type InstanceEntryKind, refusals } from '@x/service-kernel';

/** A path on an instance and where it is on the host. */
export interface InstancePath {
  /** As the instance sees it: `/home/browser/…`, links resolved. */
  readonly instancePath: string;
  readonly hostPath: string;
  readonly kind: InstanceEntryKind | undefined;
}

/**
 * Finds the host file behind a path on an instance (absolute, inside /home/browser, as the
 * model resolved it). A link that leads outside the home is 400 `field`, never a look at the host.
 */
export function resolveOnInstance(home: string, instancePath: string, field: string): InstancePath {
  const hostPath = resolve(home, posix.relative(INSTANCE_HOME, instancePath));
  if (!existsSync(hostPath)) return { instancePath, hostPath, kind: undefined };
  const real = realpathSync(hostPath);
  const inside = relative(realpathSync(home), real);
  if (inside.startsWith('..') || inside.startsWith(sep))
    throw refusals.outsideHome(field, instancePath);
  return {
    instancePath: posix.join(INSTANCE_HOME, inside.split(sep).join('/')),
    hostPath: real,
    kind: statSync(real).isDirectory() ? 'dir' : 'file',
  };
}
