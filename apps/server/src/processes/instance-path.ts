import { closeSync, constants, lstatSync, openSync, readlinkSync } from 'node:fs';
import { posix } from 'node:path';
import { INSTANCE_HOME, type InstanceEntryKind, refusals, ServiceError } from '@x/service-kernel';

/** open(2)'s O_PATH on Linux (Node does not name it): a handle on a folder, no read of it. */
const O_PATH = 0o10000000;

/** As many links as Linux follows in one path before it gives up (ELOOP). */
const MAX_LINKS = 40;

/** How a folder is held while a path is walked: by a handle, never by its name again. */
const FOLDER_FLAGS = O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * What a path on an instance is (absolute, inside /home/browser), found on the host without ever
 * following a link there: the walk holds each folder by a handle (`O_PATH|O_NOFOLLOW`) and looks at
 * the next part through `/proc/self/fd/<handle>/<part>`, so a folder swapped for a link between
 * two steps is seen as the link it now is. A link is followed as the instance would follow it
 * (its target read on the instance, `/home/browser` being the home) and one that leads outside the
 * home is 400 `field`, never a look at the host. Undefined when nothing is there (or the walk
 * cannot go on: a part is not a folder, a folder is closed to its owner, links loop).
 */
export function kindOnInstance(
  home: string,
  instancePath: string,
  field: string,
): InstanceEntryKind | undefined {
  const folders = [openSync(home, FOLDER_FLAGS)];
  const close = (count: number) => {
    for (const handle of folders.splice(folders.length - count)) closeSync(handle);
  };
  try {
    const rest = parts(posix.relative(INSTANCE_HOME, instancePath));
    let links = 0;
    for (let part = rest.shift(); part !== undefined; part = rest.shift()) {
      if (part === '..') {
        if (folders.length === 1) throw refusals.outsideHome(field, instancePath);
        close(1);
        continue;
      }
      const at = `/proc/self/fd/${folders.at(-1)}/${part}`;
      const entry = lstatSync(at, { throwIfNoEntry: false });
      if (!entry) return undefined;
      if (entry.isSymbolicLink()) {
        if (++links > MAX_LINKS) return undefined;
        const target = readlinkSync(at);
        if (posix.isAbsolute(target)) {
          const inside = posix.relative(INSTANCE_HOME, posix.normalize(target));
          if (inside.startsWith('..')) throw refusals.outsideHome(field, instancePath);
          close(folders.length - 1);
          rest.unshift(...parts(inside));
        } else rest.unshift(...parts(target));
        continue;
      }
      if (rest.length === 0) return entry.isDirectory() ? 'dir' : 'file';
      if (!entry.isDirectory()) return undefined;
      folders.push(openSync(at, FOLDER_FLAGS));
    }
    return 'dir'; // the home itself
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    return undefined; // ELOOP, ENOTDIR, EACCES: a folder that is not one (any more), or closed
  } finally {
    close(folders.length);
  }
}

function parts(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.');
}
