import { randomBytes } from 'node:crypto';
import {
  type AuditStore,
  aesSecretBox,
  createMemoryAuditStore,
  createMemoryRecordStores,
  FetchProviderClient,
  MemoryProfileStore,
  type MemoryRecordStore,
  memoryFileSystem,
  ScriptedSignInDriver,
  SECRET_KEY_BYTES,
  type ServiceEngines,
} from '@x/service-kernel';
import { DEFAULT_PROJECT_ID } from '@x/types';
import { FakeAppEngine } from './apps/fake-app-engine.js';
import { FakeBrowserEngine } from './browsers/fake-browser-engine.js';
import type { FakeInstance } from './browsers/fake-instance.js';
import { FakeCurlRunner } from './curl/fake-curl-runner.js';
import { FakeArchiveStore } from './extensions/fake-archive-store.js';
import { fakeWatcher } from './fs-watch/fake-watcher.js';
import { FakePlaywrightRunner } from './playwright/fake-playwright-runner.js';
import { FakeProcessRunner } from './processes/fake-process-runner.js';
import { FakeProxyChecker } from './proxies/fake-proxy-checker.js';
import { fakeRecorder } from './replays/fake-recorder.js';

/** The fake's engines: everything in memory, nothing from the host. */
export interface FakeEngines extends ServiceEngines<FakeInstance> {
  readonly browsers: FakeBrowserEngine;
  readonly processes: FakeProcessRunner;
  readonly playwright: FakePlaywrightRunner;
  readonly curl: FakeCurlRunner;
  readonly archives: FakeArchiveStore;
  readonly profiles: MemoryProfileStore;
  readonly proxyChecker: FakeProxyChecker;
  readonly signIn: ScriptedSignInDriver<FakeInstance>;
  /** The default project's records in memory, to read at once (`fake.state`). */
  readonly records: MemoryRecordStore;
  /** Every project's records, and the organization's. */
  readonly stores: ReturnType<typeof createMemoryRecordStores>;
  readonly audit: AuditStore;
  readonly apps: FakeAppEngine;
}

/** A fresh set of in-memory engines. */
export function createFakeEngines(clock?: () => Date): FakeEngines {
  const profiles = new MemoryProfileStore();
  const stores = createMemoryRecordStores();
  return {
    browsers: new FakeBrowserEngine(clock, profiles),
    processes: new FakeProcessRunner(),
    playwright: new FakePlaywrightRunner(),
    curl: new FakeCurlRunner(),
    recorder: fakeRecorder,
    watcher: fakeWatcher,
    files: memoryFileSystem(),
    archives: new FakeArchiveStore(),
    profiles,
    proxyChecker: new FakeProxyChecker(),
    // Real HTTP: tests point providers at a 1Password Connect server of their own.
    providers: new FetchProviderClient(),
    // Sign-ins follow scripted sites (fake.signIn): the fake has no page to read.
    signIn: new ScriptedSignInDriver<FakeInstance>(),
    // Sealed as the server seals them, under a key of this fake alone.
    secrets: aesSecretBox(randomBytes(SECRET_KEY_BYTES)),
    records: stores.scope(DEFAULT_PROJECT_ID),
    stores,
    audit: createMemoryAuditStore(),
    // Deployed code runs in this process, importing the project's own packages.
    apps: new FakeAppEngine(),
  };
}
