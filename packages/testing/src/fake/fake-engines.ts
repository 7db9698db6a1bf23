import { randomBytes } from 'node:crypto';
import {
  aesSecretBox,
  createMemoryRecordStore,
  MemoryProfileStore,
  type MemoryRecordTables,
  memoryFileSystem,
  type RecordStore,
  SECRET_KEY_BYTES,
  type ServiceEngines,
} from '@x/service-kernel';
import { FakeBrowserEngine } from './browsers/fake-browser-engine.js';
import type { FakeInstance } from './browsers/fake-instance.js';
import { FakeArchiveStore } from './extensions/fake-archive-store.js';
import { fakeWatcher } from './fs-watch/fake-watcher.js';
import { FakeProcessRunner } from './processes/fake-process-runner.js';
import { FakeProxyChecker } from './proxies/fake-proxy-checker.js';
import { fakeRecorder } from './replays/fake-recorder.js';

/** The fake's engines: everything in memory, nothing from the host. */
export interface FakeEngines extends ServiceEngines<FakeInstance> {
  readonly browsers: FakeBrowserEngine;
  readonly processes: FakeProcessRunner;
  readonly archives: FakeArchiveStore;
  readonly profiles: MemoryProfileStore;
  readonly proxyChecker: FakeProxyChecker;
  /** Records in memory, to read at once (`fake.state`). */
  readonly records: RecordStore & MemoryRecordTables;
}

/** A fresh set of in-memory engines. */
export function createFakeEngines(clock?: () => Date): FakeEngines {
  const profiles = new MemoryProfileStore();
  return {
    browsers: new FakeBrowserEngine(clock, profiles),
    processes: new FakeProcessRunner(),
    recorder: fakeRecorder,
    watcher: fakeWatcher,
    files: memoryFileSystem(),
    archives: new FakeArchiveStore(),
    profiles,
    proxyChecker: new FakeProxyChecker(),
    // Sealed as the server seals them, under a key of this fake alone.
    secrets: aesSecretBox(randomBytes(SECRET_KEY_BYTES)),
    records: createMemoryRecordStore(),
  };
}
