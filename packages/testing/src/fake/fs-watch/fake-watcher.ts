import { posix } from 'node:path';
import { type FsChange, resolveInstancePath, type Watcher } from '@x/service-kernel';
import {
  covers,
  type FakeInstance,
  type FakeWatchRegistration,
} from '../browsers/fake-instance.js';

/**
 * Applies a change to a simulated instance's files and reports it to every watch that covers
 * it, as inotify would: a new directory inside a recursive watch is covered from then on.
 */
export function applyFsChange(instance: FakeInstance, change: FsChange): void {
  const path = resolveInstancePath('path', change.path);
  const event: FsChange = { ...change, path, name: change.name ?? posix.basename(path) };
  const { nodes } = instance.files;
  if (event.type === 'DELETE') {
    for (const known of instance.files.under(path)) nodes.delete(known);
  } else {
    for (let parent = posix.dirname(path); !nodes.has(parent); parent = posix.dirname(parent)) {
      nodes.set(parent, instance.files.newNode('dir'));
    }
    const node = nodes.get(path);
    if (node) node.modTime = instance.files.newNode('file').modTime;
    else nodes.set(path, instance.files.newNode(event.is_dir ? 'dir' : 'file'));
  }
  for (const watch of instance.watches) if (covers(watch, path)) watch.change(event);
}

/** Watches simulated files: changes come from `fake.emitFsEvent` and the built-in commands. */
export const fakeWatcher: Watcher<FakeInstance> = {
  async watch(instance, spec, events) {
    const registration: FakeWatchRegistration = { ...spec, change: events.change };
    instance.watches.add(registration);
    return { close: () => instance.watches.delete(registration) };
  },
};
