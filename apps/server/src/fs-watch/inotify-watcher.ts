import { statSync, watch } from 'node:fs';
import { posix } from 'node:path';
import type { Watcher } from '@x/service-kernel';
import type { ChromiumInstance } from '../browsers/chromium-engine.js';
import { resolveOnInstance } from '../processes/instance-path.js';

/**
 * Watches directories of instances with inotify (`fs.watch`): recursive ones cover directories
 * made later; a change names its path as the instance sees it.
 */
export const inotifyWatcher: Watcher<ChromiumInstance> = {
  watch(instance, spec, events) {
    const target = resolveOnInstance(instance.home, spec.path, 'path');
    const watcher = watch(target.hostPath, { recursive: spec.recursive }, (kind, filename) => {
      if (!filename) return;
      const relative = filename.toString();
      const name = posix.basename(relative);
      const path = posix.join(target.instancePath, relative);
      let isDir: boolean | undefined;
      try {
        isDir = statSync(`${target.hostPath}/${relative}`).isDirectory();
      } catch {
        isDir = undefined; // It is gone: a deletion or the old name of a rename.
      }
      const type = kind === 'change' ? 'WRITE' : isDir === undefined ? 'DELETE' : 'CREATE';
      events.change(
        isDir === undefined ? { type, path, name } : { type, path, name, is_dir: isDir },
      );
    });
    watcher.on('error', () => events.error());
    return { close: () => watcher.close() };
  },
};
