import {
  type BrowserInstance,
  type BrowserTab,
  type KeyInput,
  type MouseInput,
  type Navigation,
  PROFILE_PATHS,
  type ProxyRoute,
  type Region,
  type ScreenFrame,
  type ScreenSize,
  type ScreenStream,
  type TelemetryEventInput,
  USER_DATA_DIR,
  type WheelInput,
} from '@x/service-kernel';
import type { Viewport } from '@x/types';
import type { SandboxFileSystem } from '../files/sandbox-file-system.js';
import type { SessionNetwork } from '../network/egress-networks.js';
import { kindOnInstance } from '../processes/instance-path.js';
import type { DiskProfileStore } from '../profiles/disk-profile-store.js';
import type { ProxyRelay } from '../proxies/proxy-relay.js';
import type { SandboxUser } from '../sandbox/bubblewrap.js';
import type { SessionCgroup } from '../sandbox/cgroups.js';
import { PROXY_CONTROL_INSIDE } from './chromium.js';
import type { ChromiumBrowser } from './chromium-browser.js';
import type { InstanceDirectory } from './instance-directory.js';
import { InstanceLog, type InstanceLogLine } from './instance-log.js';

export class ChromiumInstance implements BrowserInstance {
  readonly chromium: ChromiumBrowser;
  readonly directory: InstanceDirectory;
  readonly user: SandboxUser | undefined;
  /** Its cgroup, which its processes join too; undefined where the host allows none. */
  readonly cgroup: SessionCgroup | undefined;
  /** Its own network (the egress policy's); undefined on the host's. */
  readonly network: SessionNetwork | undefined;
  readonly #release: () => Promise<void>;
  readonly #profiles: ProfileSaving;
  readonly #startRelay: (route: ProxyRoute) => Promise<ProxyRelay>;
  readonly #proxyControlDir: string;
  readonly #isSandboxed: boolean;
  /** One proxy switch at a time: the last one asked for is the one that holds. */
  #proxySwitch: Promise<void> = Promise.resolve();
  /** Its own log: what Chromium prints on stderr, and the server's notes about it. */
  readonly log = new InstanceLog();
  /**
   * The name its cgroup, network and instance directory go by: the session's id, or the id it
   * was started with as a spare.
   */
  readonly startedAs: string;
  /** How its start went (pid, user, the time of each step), for the session's log. */
  startNote = '';
  #closing: Promise<void> | undefined;

  constructor(
    startedAs: string,
    chromium: ChromiumBrowser,
    directory: InstanceDirectory,
    sandbox: {
      user: SandboxUser | undefined;
      cgroup: SessionCgroup | undefined;
      network: SessionNetwork | undefined;
    },
    release: () => Promise<void>,
    profiles: ProfileSaving,
    proxies: {
      /** Starts a relay to a proxy for this browser (closed with it). */
      readonly start: (route: ProxyRoute) => Promise<ProxyRelay>;
      /** The proxy control extension's folder on the host. */
      readonly controlDir: string;
      /** Whether the browser runs in a sandbox (which has the folder bound in). */
      readonly isSandboxed: boolean;
    },
  ) {
    this.startedAs = startedAs;
    this.#startRelay = proxies.start;
    this.#proxyControlDir = proxies.controlDir;
    this.#isSandboxed = proxies.isSandboxed;
    this.chromium = chromium;
    this.directory = directory;
    this.user = sandbox.user;
    this.cgroup = sandbox.cgroup;
    this.network = sandbox.network;
    this.#release = release;
    this.#profiles = profiles;
    this.log.read(chromium.process.stderr);
  }

  /** Whether its Chromium still runs. */
  get isRunning(): boolean {
    return this.chromium.isRunning;
  }

  /** The host folder that is its /home/browser. */
  get home(): string {
    return this.directory.home;
  }

  type(text: string): Promise<void> {
    return this.chromium.type(text);
  }

  setViewport(viewport: Viewport): Promise<void> {
    return this.chromium.setViewport(viewport);
  }

  loadExtension(folder: string): Promise<string> {
    return this.chromium.loadExtension(folder);
  }

  unloadExtension(extensionId: string): Promise<void> {
    return this.chromium.unloadExtension(extensionId);
  }

  /**
   * Sends new connections through `route` (a relay of its own, started as at launch) or direct
   * (through its own network, as a browser made without a proxy): the browser's proxy setting
   * is changed while it runs; connections open now keep their way.
   */
  setProxy(route: ProxyRoute | undefined): Promise<void> {
    const next = this.#proxySwitch.then(async () => {
      const relay = route ? await this.#startRelay(route) : undefined;
      await this.chromium.setProxy(this.#controlFolder(), relay?.chromiumProxy);
      this.log.note(
        route
          ? `new connections go through a relay on port ${relay?.port}`
          : 'new connections go direct',
      );
    });
    // The caller hears of a failed switch through `next`; the switch after it runs all the same.
    this.#proxySwitch = next.catch(() => undefined);
    return next;
  }

  /**
   * The proxy control extension as the browser sees it: bound read-only into its sandbox from the
   * server's own folder (never written into the session's home, where a link the session planted
   * could send the server's writes elsewhere), or that folder itself for a browser on the host.
   */
  #controlFolder(): string {
    return this.#isSandboxed ? PROXY_CONTROL_INSIDE : this.#proxyControlDir;
  }

  screenshot(region: Region | undefined): Promise<Uint8Array> {
    return this.chromium.screenshot(region);
  }

  streamScreen(size: ScreenSize, onFrame: (frame: ScreenFrame) => void): Promise<ScreenStream> {
    return this.chromium.streamScreen(size, onFrame);
  }

  mouse(event: MouseInput): Promise<void> {
    return this.chromium.mouse(event);
  }

  wheel(event: WheelInput): Promise<void> {
    return this.chromium.wheel(event);
  }

  key(event: KeyInput): Promise<void> {
    return this.chromium.key(event);
  }

  setCursorHidden(hidden: boolean): Promise<void> {
    return this.chromium.setCursorHidden(hidden);
  }

  readClipboard(): Promise<string> {
    return this.chromium.readClipboard();
  }

  writeClipboard(text: string): Promise<void> {
    return this.chromium.writeClipboard(text);
  }

  stat(instancePath: string, field: string) {
    return kindOnInstance(this.home, instancePath, field);
  }

  tabs(): readonly BrowserTab[] {
    return this.chromium.tabs();
  }

  onTabsChanged(listener: () => void): () => void {
    return this.chromium.onTabsChanged(listener);
  }

  navigate(navigation: Navigation): Promise<void> {
    return this.chromium.navigate(navigation);
  }

  activateTab(tabId: string): Promise<void> {
    return this.chromium.activateTab(tabId);
  }

  openTab(url: string): Promise<void> {
    return this.chromium.openTab(url);
  }

  closeTab(tabId: string): Promise<void> {
    return this.chromium.closeTab(tabId);
  }

  holdClientInput(isHeld: boolean): void {
    this.chromium.holdClientInput(isHeld);
  }

  onExit(listener: () => void): void {
    this.chromium.process.once('exit', listener);
  }

  onLog(listener: (line: InstanceLogLine) => void): void {
    this.log.listen(listener);
  }

  onTelemetry(listener: (event: TelemetryEventInput) => void): void {
    this.chromium.telemetry.listen(listener);
  }

  /**
   * Closes Chromium as a person would, so it writes its cookies and storage to disk, then packs
   * what a profile keeps of its user data, in its sandbox as its user, into the profile's new
   * version (whole or not at all).
   */
  async saveProfile(profileId: string): Promise<void> {
    await this.chromium.stop();
    const tar = this.#profiles.files.packPaths(this, USER_DATA_DIR, PROFILE_PATHS);
    await this.#profiles.store.write(profileId, tar);
  }

  /** Closes Chromium, then frees its user and instance directory (nothing of it may survive). */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.chromium.close();
      await this.#release();
    })();
    return this.#closing;
  }
}

/** Where profiles are kept, and what carries them in and out of a session's sandbox. */
export interface ProfileSaving {
  readonly store: DiskProfileStore;
  readonly files: SandboxFileSystem<ChromiumInstance>;
}
