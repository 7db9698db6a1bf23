import { posix } from 'node:path';
import { type FsChange, resolveInstancePath, type Watcher } from '@x/service-kernel';
import type { FakeInstance, FakeWatchRegistration } from '../browsers/fake-instance.js';

function covers(watch: FakeWatchRegistration, path: string): boolean {
  if (watch.recursive) return path.startsWith(`${watch.path}/`);
  return posix.dirname(path) === watch.path;
}

/**
 * Applies a change to a simulated instance's files and reports it to every watch that covers
 * it, as inotify would: a new directory inside a recursive watch is covered from then on.
 */
export function applyFsChange(instance: FakeInstance, change: FsChange): void {
  const path = resolveInstancePath('path', change.path);
  const event: FsChange = { ...change, path, name: change.name ?? posix.basename(path) };
  if (event.type === 'DELETE') {
    for (const known of [...instance.files.keys()]) {
      if (known === path || known.startsWith(`${path}/`)) instance.files.delete(known);
    }
  } else {
    for (
      let parent = posix.dirname(path);
      !instance.files.has(parent);
      parent = posix.dirname(parent)
    ) {
      instance.files.set(parent, 'dir');
    }
    instance.files.set(path, event.is_dir ? 'dir' : 'file');
  }
  for (const watch of instance.watches) if (covers(watch, path)) watch.change(event);
}

/** Watches simulated files: changes come from `fake.emitFsEvent` and the built-in commands. */
export const fakeWatcher: Watcher<FakeInstance> = {
  watch(instance, spec, events) {
    const registration: FakeWatchRegistration = { ...spec, change: events.change };
    instance.watches.add(registration);
    return { close: () => instance.watches.delete(registration) };
  },
};
