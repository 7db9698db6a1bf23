import { posix } from 'node:path';
import { EventBuffer, eventStreamBody, notFound, ServiceError } from '@x/service-kernel';
import type { WatchEvent } from '@x/types';
import { findBrowser } from './browsers.js';
import type { HandlerTable } from './handler-types.js';
import { resolveInstancePath } from './instance-paths.js';
import type { FakeRuntime } from './runtime.js';
import type { FakeBrowser, FakeWatch } from './state.js';

/** A change on the instance's filesystem, as a test or a command makes it. */
export type FsChange = Extract<WatchEvent, { path: string }>;

/** Ends a watch: its stream closes and it takes no more events. */
export function stopWatch(watch: FakeWatch): void {
  watch.events.close();
}

function covers(watch: FakeWatch, path: string): boolean {
  if (watch.recursive) return path.startsWith(`${watch.path}/`);
  return posix.dirname(path) === watch.path;
}

/**
 * Applies a change to the instance's files and reports it to every watch that covers it. A new
 * directory inside a recursive watch is covered from then on, as the contract asks.
 */
export function applyFsChange(runtime: FakeRuntime, browser: FakeBrowser, change: FsChange): void {
  const path = resolveInstancePath('path', change.path);
  const event: FsChange = { ...change, path, name: change.name ?? posix.basename(path) };
  if (event.type === 'DELETE') {
    for (const known of [...browser.files.keys()]) {
      if (known === path || known.startsWith(`${path}/`)) browser.files.delete(known);
    }
  } else {
    for (
      let parent = posix.dirname(path);
      !browser.files.has(parent);
      parent = posix.dirname(parent)
    ) {
      browser.files.set(parent, 'dir');
    }
    browser.files.set(path, event.is_dir ? 'dir' : 'file');
  }
  for (const watch of browser.watches.values()) {
    if (!watch.events.isClosed && covers(watch, path)) watch.events.push(event);
  }
}

function findWatch(runtime: FakeRuntime, browserId: string, watchId: string): FakeWatch {
  const watch = findBrowser(runtime, browserId).watches.get(watchId);
  if (!watch || watch.events.isClosed) throw notFound('watch', watchId);
  return watch;
}

/** Handlers of the filesystem watch operations. */
export const watchHandlers: Pick<
  HandlerTable,
  'browsers.fs.watch.start' | 'browsers.fs.watch.events' | 'browsers.fs.watch.stop'
> = {
  'browsers.fs.watch.start': ({ runtime, params, body }) => {
    const browser = findBrowser(runtime, params.id as string);
    const path = resolveInstancePath('path', body.path);
    const kind = browser.files.get(path);
    if (kind === undefined) throw notFound('directory', path);
    if (kind !== 'dir')
      throw new ServiceError('bad_request', `${path} is a file; watch a directory.`);
    const watch: FakeWatch = {
      id: runtime.nextId('watch'),
      path,
      recursive: body.recursive,
      events: new EventBuffer<WatchEvent>(runtime.settings.watchBufferSize, (lost) => ({
        type: 'OVERFLOW',
        lost,
      })),
    };
    browser.watches.set(watch.id, watch);
    return { status: 201, json: { watch_id: watch.id } };
  },
  'browsers.fs.watch.events': ({ runtime, params }) => {
    const watch = findWatch(runtime, params.id as string, params.watch_id as string);
    return { status: 200, events: eventStreamBody((signal) => watch.events.read(signal)) };
  },
  'browsers.fs.watch.stop': ({ runtime, params }) => {
    stopWatch(findWatch(runtime, params.id as string, params.watch_id as string));
    return { status: 204 };
  },
};
