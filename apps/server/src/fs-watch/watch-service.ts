import { type FSWatcher, statSync, watch } from 'node:fs';
import { posix } from 'node:path';
import { createIdGenerator, EventBuffer, notFound, ServiceError } from '@x/service-kernel';
import type { WatchEvent } from '@x/types';
import { resolveOnInstance } from '../processes/instance-path.js';

/** Events a watch holds for a slow reader before it counts them as lost. */
const BUFFER_SIZE = 1024;

interface ActiveWatch {
  readonly id: string;
  readonly browserId: string;
  readonly watcher: FSWatcher;
  readonly events: EventBuffer<WatchEvent>;
}

const nextId = createIdGenerator();

/**
 * Directory watches on browsers' instances: inotify through `fs.watch`, recursive ones covering
 * directories made later, events in order with OVERFLOW for what a slow reader lost. All end with
 * their browser.
 */
export class WatchService {
  readonly #watches = new Map<string, ActiveWatch>();

  /** Starts watching a directory under /home/browser: 400 outside it or for a file, 404 when missing. */
  start(browserId: string, home: string, path: string, recursive: boolean): { watch_id: string } {
    const target = resolveOnInstance(home, path, 'path');
    if (!target.exists) throw notFound('directory', target.instancePath);
    if (!statSync(target.hostPath).isDirectory()) {
      throw new ServiceError('bad_request', `${target.instancePath} is a file; watch a directory.`);
    }
    const events = new EventBuffer<WatchEvent>(BUFFER_SIZE, (lost) => ({ type: 'OVERFLOW', lost }));
    const watcher = watch(target.hostPath, { recursive }, (kind, filename) => {
      if (!filename) return;
      const relative = filename.toString();
      const name = posix.basename(relative);
      const instancePath = posix.join(target.instancePath, relative);
      let isDir: boolean | undefined;
      try {
        isDir = statSync(`${target.hostPath}/${relative}`).isDirectory();
      } catch {
        isDir = undefined; // It is gone: a deletion or the old name of a rename.
      }
      const type = kind === 'change' ? 'WRITE' : isDir === undefined ? 'DELETE' : 'CREATE';
      events.push(
        isDir === undefined
          ? { type, path: instancePath, name }
          : { type, path: instancePath, name, is_dir: isDir },
      );
    });
    const id = nextId('watch');
    watcher.on('error', () => this.#end(id));
    this.#watches.set(id, { id, browserId, watcher, events });
    return { watch_id: id };
  }

  /** A running watch's events; 404 when unknown or stopped. */
  events(browserId: string, watchId: string): EventBuffer<WatchEvent> {
    return this.#find(browserId, watchId).events;
  }

  /** Stops a watch and ends its stream; 404 when unknown or already stopped. */
  stop(browserId: string, watchId: string): void {
    this.#find(browserId, watchId);
    this.#end(watchId);
  }

  /** Ends every watch of a browser (it is being deleted). */
  endAll(browserId: string): void {
    for (const watch of [...this.#watches.values()])
      if (watch.browserId === browserId) this.#end(watch.id);
  }

  #find(browserId: string, watchId: string): ActiveWatch {
    const watch = this.#watches.get(watchId);
    if (!watch || watch.browserId !== browserId) throw notFound('watch', watchId);
    return watch;
  }

  #end(watchId: string): void {
    const watch = this.#watches.get(watchId);
    if (!watch) return;
    this.#watches.delete(watchId);
    watch.watcher.close();
    watch.events.close();
  }
}
