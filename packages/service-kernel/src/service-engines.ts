import type { AppEngine } from './apps/app-engine.js';
import type { SignInDriver } from './auth/sign-in-driver.js';
import type { ProviderClient } from './credentials/provider-client.js';
import type {
  ArchiveStore,
  BrowserEngine,
  BrowserInstance,
  CurlRunner,
  FileSystem,
  PlaywrightRunner,
  ProcessRunner,
  ProfileStore,
  ProxyChecker,
  Recorder,
  SecretBox,
  Watcher,
} from './engines.js';
import type { RecordStore } from './records/record-store.js';

/** Every engine of one implementation. */
export interface ServiceEngines<I extends BrowserInstance> {
  readonly browsers: BrowserEngine<I>;
  readonly processes: ProcessRunner<I>;
  readonly playwright: PlaywrightRunner<I>;
  readonly curl: CurlRunner<I>;
  readonly recorder: Recorder<I>;
  readonly watcher: Watcher<I>;
  readonly files: FileSystem<I>;
  readonly archives: ArchiveStore;
  readonly profiles: ProfileStore;
  readonly proxyChecker: ProxyChecker;
  readonly providers: ProviderClient;
  readonly signIn: SignInDriver<I>;
  readonly secrets: SecretBox;
  readonly records: RecordStore;
  readonly apps: AppEngine;
}
