import { createReadStream, existsSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BrowserEngine,
  type LaunchSpec,
  type ProxyRoute,
  refusals,
  ServiceError,
  USER_DATA_DIR,
} from '@x/service-kernel';
import type { Logger } from 'pino';
import type { SandboxPlace } from '../files/sandbox-file-system.js';
import { allowedAddress, DestinationRefused } from '../network/destination-policy.js';
import type { EgressNetworks, SessionNetwork } from '../network/egress-networks.js';
import { ProxyRelay } from '../proxies/proxy-relay.js';
import type { SandboxUser } from '../sandbox/bubblewrap.js';
import type { SessionCgroup, SessionCgroups } from '../sandbox/cgroups.js';
import { InstanceDisks } from '../sandbox/instance-disks.js';
import { canNestNamespaces } from '../sandbox/probe.js';
import type { SandboxUsers } from '../sandbox/sandbox-users.js';
import type { SessionTrust } from '../sandbox/session-trust.js';
import type { SystemTools } from '../system/executables.js';
import { assertFreeSpace, BROWSER_FREE_BYTES } from '../system/free-space.js';
import { writeSandboxFile } from '../system/sandbox-files.js';
import { settleInOrder } from '../system/settle-in-order.js';
import type { BrowserSandbox } from './chromium.js';
import { ChromiumBrowser } from './chromium-browser.js';
import { ChromiumInstance, type ProfileSaving } from './chromium-instance.js';
import {
  furnishInstanceDirectory,
  type InstanceDirectory,
  makeInstanceRoot,
  removeInstanceDirectory,
} from './instance-directory.js';
import { SpareBrowsers } from './spare-browsers.js';

/** How the server's browsers are sandboxed, as found at start. */
export interface Sandboxing {
  /** The users browsers run as when the server runs as root; undefined otherwise. */
  readonly users: SandboxUsers | undefined;
  /**
   * Whether browsers run in bubblewrap at all: always, but for the benchmarks, which measure
   * what the sandbox costs against Chromium started straight on the host.
   */
  readonly isEnabled: boolean;
  /** Per-session limits, where the host lets the server make cgroups. */
  readonly cgroups?: SessionCgroups | undefined;
  /** A disk of its own per browser home, where the host lets the server mount one. */
  readonly disks?: InstanceDisks | undefined;
  /** Where browsers' pages may go (the egress policy); undefined: the host's network (benchmarks). */
  readonly egress?: Egress | undefined;
  /** The authorities sessions trust besides the public ones (`XB_SESSION_CA_FILE`). */
  readonly trust?: SessionTrust | undefined;
}

/**
 * How a browser's network is made: by the egress policy (a namespace of its own per session), the
 * host's own (`XB_ALLOW_NETWORKS=*`, the operator accepts an open network), or not at all, when the
 * policy cannot be kept here (why: browsers are then refused with 503).
 */
export type Egress =
  | { readonly networks: EgressNetworks }
  | { readonly open: true }
  | { readonly unavailable: string };

/**
 * One real browser: Chromium in its sandbox, its instance directory (its `/home/browser`) and
 * the unprivileged user it runs as.
 */
/** Most proxy relays one browser keeps: the one in use and those before it, still serving. */
const MAX_RELAYS_PER_BROWSER = 4;

/**
 * The proxy control extension's folder, shipped with the server (`proxy-control/`: a manifest
 * with the `proxy` permission and a page to act from): found beside the bundle or the sources.
 */
export function proxyControlFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const folder = [join(here, '..', 'proxy-control'), join(here, '..', '..', 'proxy-control')].find(
    (path) => existsSync(join(path, 'manifest.json')),
  );
  if (!folder) throw new Error('The proxy control extension is missing beside the server.');
  return realpathSync(folder);
}

/**
 * Starts real Chromium browsers, each in a bubblewrap sandbox of its own, as a user of its own
 * when the server runs as root, with the extensions it loads bound read-only.
 */
export class ChromiumEngine implements BrowserEngine<ChromiumInstance> {
  readonly #chromePath: string;
  readonly #dataDir: string;
  /** The proxy control extension's folder, bound into every browser's sandbox. */
  readonly #proxyControlDir: string;
  readonly #tools: SystemTools;
  readonly #sandboxing: Sandboxing;
  readonly #logger: Logger;
  /** The host folder of an extension archive's unpacked files, by its key. */
  readonly #extensionFolder: (key: string) => Promise<string>;
  readonly #profiles: ProfileSaving;
  /** Whether Chromium's own renderer sandbox works inside ours on this host. */
  readonly #isChromiumSandboxed: boolean;
  /** Browsers started ahead for the next plain create (`spareBrowsers` of them; none for 0). */
  readonly spares: SpareBrowsers<ChromiumInstance> | undefined;
  /** Hears how long each step of a browser's start took (milliseconds by step), once it started. */
  onStarted: (phases: Readonly<Record<string, number>>) => void = () => undefined;

  constructor(options: {
    chromePath: string;
    dataDir: string;
    tools: SystemTools;
    sandboxing: Sandboxing;
    logger: Logger;
    extensionFolder: (key: string) => Promise<string>;
    profiles: ProfileSaving;
    /** Browsers to keep started ahead for the configuration last asked for. */
    spareBrowsers?: number;
  }) {
    this.#profiles = options.profiles;
    this.#chromePath = options.chromePath;
    this.#dataDir = options.dataDir;
    this.#tools = options.tools;
    this.#sandboxing = options.sandboxing;
    this.#logger = options.logger;
    this.#extensionFolder = options.extensionFolder;
    this.#proxyControlDir = proxyControlFolder();
    this.#isChromiumSandboxed = this.#probeChromiumSandbox();
    this.spares = options.spareBrowsers
      ? new SpareBrowsers({
          count: options.spareBrowsers,
          start: (spec) => this.#launch(spec),
          logger: options.logger,
        })
      : undefined;
  }

  /**
   * 503 when the egress policy cannot be kept on this host (the operator did not accept an open
   * network); 400 for a headed browser on a host without Xvfb.
   */
  check(spec: { readonly headless: boolean }): void {
    const { egress } = this.#sandboxing;
    if (egress && 'unavailable' in egress)
      throw new ServiceError(
        'unavailable',
        `Browsers cannot start: this server cannot keep their network to public destinations (${egress.unavailable}). The operator may accept an open network with XB_ALLOW_NETWORKS=*.`,
      );
    if (!spec.headless && !this.#tools.xvfb) {
      throw new ServiceError(
        'bad_request',
        'headless: false needs Xvfb, which is not installed on this server (apt-get install xvfb): create a headless browser.',
        {
          details: [
            { code: 'invalid_input', message: 'body.headless: must be true on this server' },
          ],
        },
      );
    }
  }

  /**
   * Starts a browser, or hands over a spare started ahead for its configuration (see
   * `SpareBrowsers`), which then goes by the session's id.
   */
  async launch(spec: LaunchSpec): Promise<ChromiumInstance> {
    const instance = await this.#launchOrTakeSpare(spec);
    // Its first page, without waiting for it: a page that does not load fails nothing.
    if (spec.startUrl !== undefined)
      void instance.chromium.navigate({ url: spec.startUrl }).catch((error: unknown) => {
        this.#logger.info(
          { session: spec.id, err: error },
          'the start_url of a browser could not be opened',
        );
      });
    return instance;
  }

  async #launchOrTakeSpare(spec: LaunchSpec): Promise<ChromiumInstance> {
    const spare = await this.spares?.take(spec);
    if (!spare) {
      const instance = await this.#launch(spec);
      instance.log.note(`browser ${spec.id}: chromium started ${instance.startNote}`);
      return instance;
    }
    // Its log begins at hand-over, as every session's: nothing of it was written before.
    spare.log.note(
      `browser ${spec.id}: chromium started ahead as ${spare.startedAs} ${spare.startNote}`,
    );
    this.#logger.info(
      { session: spec.id, spare: spare.startedAs },
      'browser handed over from spares',
    );
    return spare;
  }

  async #launch(spec: LaunchSpec): Promise<ChromiumInstance> {
    const { cgroups, disks } = this.#sandboxing;
    // A disk of its own is reserved in full: the data disk keeps its margin besides.
    assertFreeSpace(this.#dataDir, BROWSER_FREE_BYTES + (disks?.bytes ?? 0), 'start a browser');
    let cgroup: SessionCgroup | undefined;
    let sandbox: BrowserSandbox | undefined;
    let user: SandboxUser | undefined;
    let root: string | undefined;
    // Its proxy relays: the one it started with, and those a proxy switch started since.
    const relays: ProxyRelay[] = [];
    let network: SessionNetwork | undefined;
    let policyFile: string | undefined;
    const done = new Set<number>();
    const release = async () => {
      // Its proxy relay closes; every process of its user and its cgroup goes (none may outlive
      // it, wherever it hid), then its files (and its disk); then the user is free for another
      // browser. A step that fails does not keep the next from running; a step done is not done
      // again when release is tried again; the user is only reused after a clean end.
      const steps = [
        async () => {
          await Promise.all(relays.map((relay) => relay.close()));
        },
        async () => {
          if (user) await this.#sandboxing.users?.killAll(user.uid);
        },
        async () => {
          if (cgroup) await cgroups?.remove(spec.id);
        },
        async () => {
          await network?.close();
        },
        async () => {
          if (root && disks) await disks.remove(root);
          else if (root) await removeInstanceDirectory(root);
        },
        async () => {
          if (policyFile) rmSync(policyFile, { force: true });
        },
      ];
      const failures = await settleInOrder(
        steps.map((step, index) => async () => {
          if (done.has(index)) return;
          await step();
          done.add(index);
        }),
      );
      if (failures.length > 0) throw failures[0];
      if (user) this.#sandboxing.users?.give(user);
    };
    // How long each step takes, for the debug log and the metrics: where a start's time goes.
    const phases: Record<string, number> = {};
    let mark = performance.now();
    const phase = (name: string) => {
      const now = performance.now();
      phases[name] = (phases[name] ?? 0) + (now - mark);
      mark = now;
    };
    try {
      // Chromium starts at the host's speed when it loads no extension (then nothing of the
      // caller's runs before it is handed over); its CPU quota holds from then on.
      const isCpuLimitedFromStart = spec.extensions.length > 0;
      cgroup = this.#cgroupFor(spec.id, isCpuLimitedFromStart);
      phase('cgroup');
      sandbox = this.#sandboxFor(cgroup);
      user = sandbox?.user;
      phase('user');
      root = makeInstanceRoot(this.#dataDir, spec.id);
      if (disks) {
        await disks.mount(root, user);
        phase('disk');
      }
      const directory: InstanceDirectory = furnishInstanceDirectory(root, user);
      if (spec.chromePolicy) {
        // Next to the instance folder, never in it: the session reads it, and cannot change it.
        policyFile = `${root}.policy.json`;
        writeSandboxFile(policyFile, JSON.stringify(spec.chromePolicy));
      }
      this.#sandboxing.trust?.furnish(root, user);
      phase('home');
      if (spec.profileId !== undefined) {
        await this.#loadProfile({ home: root, user, cgroup }, spec.profileId);
        phase('profile');
      }
      const { egress } = this.#sandboxing;
      if (sandbox && egress && 'networks' in egress) {
        network = await egress.networks.create(spec.id, spec.allowNetworks, {
          reachesHost: spec.proxy !== undefined,
        });
        phase('egress');
      }
      // A relay to a proxy, for the session: the server reaches the proxy only where the
      // session itself may go, and listens where only the session reaches it.
      const startRelay = async (route: ProxyRoute): Promise<ProxyRelay> => {
        const allow = network ? spec.allowNetworks : 'open';
        const address = await allowedAddress(route.host, route.port, allow).catch(
          (error: unknown) => {
            if (error instanceof DestinationRefused) throw refusals.proxyUnreachable(error.message);
            throw error;
          },
        );
        const relay = await ProxyRelay.start(
          { ...route, address },
          user?.uid,
          this.#logger,
          network?.relay,
        );
        relays.push(relay);
        await network?.openPort(relay.port);
        // Each switch leaves the relay before it serving the connections it holds; past a few,
        // the oldest goes (and its connections with it).
        while (relays.length > MAX_RELAYS_PER_BROWSER) await relays.shift()?.close();
        return relay;
      };
      const relay = spec.proxy ? await startRelay(spec.proxy) : undefined;
      if (spec.proxy) phase('proxy');
      const chromium = await ChromiumBrowser.launch({
        chromePath: this.#chromePath,
        instance: directory,
        isHeadless: spec.headless,
        isStealthy: spec.stealth,
        xvfbPath: this.#tools.xvfb,
        extensionDirs: await Promise.all(spec.extensions.map(this.#extensionFolder)),
        viewport: spec.viewport,
        sandbox,
        network,
        proxy: relay?.chromiumProxy,
        proxyControlDir: this.#proxyControlDir,
        policyFile,
        telemetry: spec.telemetry,
        phase,
      });
      if (cgroup && !isCpuLimitedFromStart) cgroups?.limitCpu(spec.id);
      this.#logger.info(
        { session: spec.id, chromiumPid: chromium.process.pid },
        'chromium started',
      );
      const ms = Object.fromEntries(
        Object.entries(phases).map(([name, value]) => [name, Math.round(value * 10) / 10]),
      );
      this.#logger.debug({ session: spec.id, phases: ms }, 'start phases (ms)');
      this.onStarted(phases);
      const instance = new ChromiumInstance(
        spec.id,
        chromium,
        directory,
        { user, cgroup, network },
        release,
        this.#profiles,
        {
          start: startRelay,
          controlDir: this.#proxyControlDir,
          isSandboxed: sandbox !== undefined,
        },
      );
      const steps = Object.entries(ms).map(([name, value]) => `${name} ${value} ms`);
      instance.startNote = `(pid ${chromium.process.pid}${user ? `, user ${user.uid}` : ''}): ${steps.join(', ')}`;
      return instance;
    } catch (error) {
      // The caller hears why the start failed; a clean-up that fails (the host out of open files,
      // say) is tried again until it is done, so a failed start leaves nothing behind.
      await this.#cleanUp(spec.id, release);
      throw error;
    }
  }

  /**
   * Runs a failed start's clean-up, and again with a growing pause (1 s, 2 s, … up to a minute,
   * for about an hour) while it fails: each failure is logged, the last as an error.
   */
  async #cleanUp(sessionId: string, release: () => Promise<void>, attempt = 0): Promise<void> {
    try {
      await release();
      if (attempt > 0) this.#logger.info({ session: sessionId }, 'a failed start is cleaned up');
    } catch (failure) {
      const isLast = attempt >= CLEAN_UP_ATTEMPTS;
      this.#logger[isLast ? 'error' : 'warn'](
        { err: failure, session: sessionId, attempt },
        isLast
          ? 'clean-up after a failed start gave up: the operator must remove what is left'
          : 'clean-up after a failed start failed; trying again',
      );
      if (isLast) return;
      const timer = setTimeout(
        () => void this.#cleanUp(sessionId, release, attempt + 1),
        Math.min(1000 * 2 ** attempt, 60_000),
      );
      timer.unref();
    }
  }

  /** Unpacks a profile's last saved version into a new browser's user data, as its user. */
  async #loadProfile(place: SandboxPlace, profileId: string): Promise<void> {
    const saved = await this.#profiles.store.local(profileId);
    if (!saved) return;
    await this.#profiles.files.unpackTar(
      place,
      USER_DATA_DIR,
      createReadStream(saved.path),
      saved.bytes,
    );
  }

  /**
   * After a restart: whatever of an earlier run outlived it (the server was killed) runs as a
   * user of this data directory's block and is ended; its disks are unmounted; every instance
   * directory goes.
   */
  async recover(): Promise<void> {
    this.#sandboxing.users?.signalAll();
    await this.#sandboxing.cgroups?.reap();
    InstanceDisks.reap(this.#dataDir);
    await removeInstanceDirectory(join(this.#dataDir, 'instances'));
  }

  /** The sandbox of a new browser, with a user of its own; 503 naming bubblewrap without it. */
  /** A session's cgroup; a host that refuses one for it is logged, and the browser runs without. */
  #cgroupFor(sessionId: string, isCpuLimited: boolean): SessionCgroup | undefined {
    try {
      return this.#sandboxing.cgroups?.create(sessionId, isCpuLimited);
    } catch (error) {
      this.#logger.warn({ err: error, session: sessionId }, 'no cgroup for this session');
      void this.#sandboxing.cgroups?.remove(sessionId).catch((removal: unknown) => {
        this.#logger.warn(
          { err: removal, session: sessionId },
          'a cgroup half made was left behind',
        );
      });
      return undefined;
    }
  }

  #sandboxFor(cgroup: SessionCgroup | undefined): BrowserSandbox | undefined {
    if (!this.#sandboxing.isEnabled) return undefined;
    const { bwrap } = this.#tools;
    if (!bwrap) throw refusals.missingTool('Browsers', 'bubblewrap', 'bubblewrap');
    return {
      bubblewrap: bwrap,
      user: this.#sandboxing.users?.take(),
      isChromiumSandboxed: this.#isChromiumSandboxed,
      cgroup,
    };
  }

  /** Tries Chromium's renderer sandbox inside ours once, and says at start when it cannot run. */
  #probeChromiumSandbox(): boolean {
    const { users, isEnabled } = this.#sandboxing;
    const { bwrap } = this.#tools;
    if (!bwrap || !isEnabled) return false;
    const user = users?.take();
    try {
      const works = canNestNamespaces(bwrap, user);
      if (!works)
        this.#logger.warn(
          "Chromium's own renderer sandbox cannot run here (this host forbids unprivileged user namespaces): browsers run with --no-sandbox inside the bubblewrap sandbox",
        );
      return works;
    } finally {
      if (user) users?.give(user);
    }
  }
}

/** How many times a failed start's clean-up is tried again (about an hour, a minute apart at most). */
const CLEAN_UP_ATTEMPTS = 64;
