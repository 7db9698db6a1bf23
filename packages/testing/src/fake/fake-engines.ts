import { createMemoryRecordStore, memoryFileSystem, type ServiceEngines } from '@x/service-kernel';
import { FakeBrowserEngine } from './browsers/fake-browser-engine.js';
import type { FakeInstance } from './browsers/fake-instance.js';
import { FakeArchiveStore } from './extensions/fake-archive-store.js';
import { fakeWatcher } from './fs-watch/fake-watcher.js';
import { FakeProcessRunner } from './processes/fake-process-runner.js';
import { fakeRecorder } from './replays/fake-recorder.js';

/** The fake's engines: everything in memory, nothing from the host. */
export interface FakeEngines extends ServiceEngines<FakeInstance> {
  readonly browsers: FakeBrowserEngine;
  readonly processes: FakeProcessRunner;
  readonly archives: FakeArchiveStore;
}

/** A fresh set of in-memory engines. */
export function createFakeEngines(clock?: () => Date): FakeEngines {
  return {
    browsers: new FakeBrowserEngine(clock),
    processes: new FakeProcessRunner(),
    recorder: fakeRecorder,
    watcher: fakeWatcher,
    files: memoryFileSystem(),
    archives: new FakeArchiveStore(),
    records: createMemoryRecordStore(),
  };
}
