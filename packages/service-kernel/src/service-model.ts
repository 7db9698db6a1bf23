import { DEFAULT_PROJECT_ID } from '@x/types';
import type { DeploymentKeys } from './apps/deployment-keys.js';
import { DeploymentModel } from './apps/deployment-model.js';
import { AuthConnectionModel } from './auth/auth-connection-model.js';
import { BrowserModel } from './browsers/browser-model.js';
import { ComputerModel } from './computer/computer-model.js';
import { CredentialModel } from './credentials/credential-model.js';
import type { CredentialProviderModel } from './credentials/credential-provider-model.js';
import { CurlModel } from './curl/curl-model.js';
import type { BrowserInstance } from './engines.js';
import { ExtensionModel } from './extensions/extension-model.js';
import { FileModel } from './files/file-model.js';
import { WatchModel } from './fs-watch/watch-model.js';
import { createIdGenerator, type IdGenerator } from './ids.js';
import { InvocationModel } from './invocations/invocation-model.js';
import { LiveViewModel } from './live-view/live-view-model.js';
import { LogModel } from './logs/log-model.js';
import {
  type ModelContext,
  type ModelLog,
  type ModelSettings,
  type ProjectQuota,
  silentLog,
} from './model-context.js';
import { PlaywrightModel } from './playwright/playwright-model.js';
import { PoolModel } from './pools/pool-model.js';
import { ProcessModel } from './processes/process-model.js';
import { ProfileModel } from './profiles/profile-model.js';
import { ProxyModel } from './proxies/proxy-model.js';
import { ReplayModel } from './replays/replay-model.js';
import type { ServiceEngines } from './service-engines.js';
import { TelemetryModel } from './telemetry/telemetry-model.js';

/** What a service model is made of. */
export interface ServiceModelOptions<I extends BrowserInstance> {
  readonly engines: ServiceEngines<I>;
  readonly settings: ModelSettings;
  /** The time; the system's by default. */
  readonly clock?: () => Date;
  /** Generated ids; random (unguessable) by default. */
  readonly nextId?: IdGenerator;
  /** Where background work reports; nowhere by default. */
  readonly log?: ModelLog;
  /** The project it serves: the default project unless told otherwise. */
  readonly project?: string;
  /** What the project may hold; without one, only the service's own cap applies. */
  readonly quota?: ProjectQuota;
  /** The organization's credential providers (none for a model on its own: a unit test's). */
  readonly providers?: () => CredentialProviderModel;
  /** Mints the keys deployments' code calls with (none for a model on its own). */
  readonly deploymentKeys?: DeploymentKeys;
}

/**
 * The service: every rule of the API, per resource, written once. The fake runs it on in-memory
 * engines, the server on Chromium, bubblewrap, ffmpeg, inotify and SQLite; both answer through
 * the same handlers (`serviceHandlers`).
 */
export class ServiceModel<I extends BrowserInstance> {
  readonly context: ModelContext<I>;
  readonly extensions: ExtensionModel<I>;
  readonly invocations: InvocationModel<I>;
  readonly profiles: ProfileModel<I>;
  readonly proxies: ProxyModel<I>;
  readonly credentials: CredentialModel<I>;
  readonly browsers: BrowserModel<I>;
  readonly computer: ComputerModel<I>;
  readonly pools: PoolModel<I>;
  readonly processes: ProcessModel<I>;
  readonly playwright: PlaywrightModel<I>;
  readonly logs: LogModel<I>;
  readonly curl: CurlModel<I>;
  readonly telemetry: TelemetryModel<I>;
  readonly watches: WatchModel<I>;
  readonly files: FileModel<I>;
  readonly replays: ReplayModel<I>;
  readonly liveViews: LiveViewModel<I>;
  readonly auth: AuthConnectionModel<I>;
  readonly deployments: DeploymentModel<I>;

  constructor(options: ServiceModelOptions<I>) {
    this.context = {
      project: options.project ?? DEFAULT_PROJECT_ID,
      quota: options.quota ?? {
        nodeBrowsers: () => this.browsers.count(),
        sessions: () => undefined,
        invocations: () => undefined,
      },
      engines: options.engines,
      settings: options.settings,
      clock: options.clock ?? (() => new Date()),
      nextId: options.nextId ?? createIdGenerator(),
      log: options.log ?? silentLog,
    };
    this.extensions = new ExtensionModel(this.context);
    this.invocations = new InvocationModel(this.context);
    this.profiles = new ProfileModel(this.context);
    this.proxies = new ProxyModel(this.context);
    this.credentials = new CredentialModel(this.context);
    this.browsers = new BrowserModel(
      this.context,
      this.extensions,
      this.invocations,
      this.profiles,
      this.proxies,
    );
    this.computer = new ComputerModel(this.browsers);
    this.pools = new PoolModel(this.context, this.browsers);
    this.processes = new ProcessModel(this.context, this.browsers);
    this.playwright = new PlaywrightModel(this.context, this.browsers);
    this.watches = new WatchModel(this.context, this.browsers);
    this.files = new FileModel(this.context, this.browsers);
    this.replays = new ReplayModel(this.context, this.browsers);
    this.logs = new LogModel(this.context, this.browsers, this.files);
    this.curl = new CurlModel(this.context, this.browsers);
    this.telemetry = new TelemetryModel(this.context, this.browsers);
    this.liveViews = new LiveViewModel(this.context, this.browsers, this.computer);
    this.auth = new AuthConnectionModel(this.context, {
      browsers: this.browsers,
      profiles: this.profiles,
      credentials: this.credentials,
      liveViews: this.liveViews,
      replays: this.replays,
      providers: () => options.providers?.(),
    });
    this.deployments = new DeploymentModel(this.context, options.deploymentKeys);
    this.invocations.deployments = this.deployments;
    this.deployments.beforeStop = (deploymentId, reason) =>
      this.invocations.cancelOf(deploymentId, `Its deployment stopped: ${reason}`);
    this.browsers.onEnding = (id) => this.liveViews.ended(id);
    this.browsers.reserved = () => this.pools.reservedSize();
    this.browsers.viewersOf = (id) => this.liveViews.viewersOf(id);
    this.browsers.onResized = (id, viewport) => this.liveViews.resized(id, viewport);
    this.browsers.whileRecorded = (entry, work) => this.replays.recordAround(entry, work);
    this.profiles.namingPool = (profile) =>
      this.pools.namingConfig(
        ({ profile: reference }) =>
          reference !== undefined &&
          (reference.id === profile.id ||
            (reference.name !== undefined && reference.name === profile.name)),
      );
    this.proxies.namingPool = (proxyId) =>
      this.pools.namingConfig((config) => config.proxy_id === proxyId);
    this.proxies.usersOf = (proxyId) =>
      this.browsers
        .entries()
        .filter((entry) => entry.record.proxy_id === proxyId)
        .map((entry) => entry.record.session_id);
    // What ends with a browser is the browser model's; what follows its end is the pool's.
    this.browsers.onEnded = (record) => this.pools.forget(record);
    this.invocations.endBrowsersOf = async (invocationId) => {
      const ending = this.browsers
        .entries()
        .filter((entry) => entry.record.invocation_id === invocationId);
      await Promise.all(
        ending.map((entry) => this.browsers.end(entry, { reason: 'invocation_ended' })),
      );
    };
  }

  /**
   * After a restart: what an earlier run left open in the records is closed (its browsers
   * deleted, its recordings finished); the pools fill again. Gives how many browsers were closed.
   */
  async recover(origin: string): Promise<number> {
    const closed = await this.browsers.recover();
    await this.replays.recover();
    await this.pools.restore(origin);
    await this.auth.recover();
    await this.deployments.recover();
    await this.invocations.recover();
    return closed;
  }

  /** Housekeeping before each call and on a timer: browsers idle past their time-out end. */
  sweep(): void {
    this.browsers.sweep();
    this.pools.sweep();
  }

  /**
   * Draining: no new browser starts here; what is in use goes on. A server alone stops its
   * pools filling (nothing can start). In a cluster the pools go on: the warm browsers here end,
   * so none is handed out here, and pools start theirs on the other nodes (those this node holds
   * too, until it leaves and they move).
   */
  drain(): void {
    this.browsers.drain();
    if (this.context.settings.poolPeers) this.browsers.endWarm();
    else this.pools.close();
  }

  /** Shutdown: pools stop filling, every recording is finalized, every browser ends. */
  async close(): Promise<void> {
    this.pools.close();
    this.auth.close();
    this.liveViews.close();
    await this.invocations.close();
    await this.deployments.close();
    await this.browsers.close();
  }
}
