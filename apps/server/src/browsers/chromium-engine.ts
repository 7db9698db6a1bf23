import { join } from 'node:path';
import {
  type BrowserEngine,
  type BrowserInstance,
  type LaunchSpec,
  type Region,
  refusals,
  ServiceError,
} from '@x/service-kernel';
import type { Logger } from 'pino';
import { resolveOnInstance } from '../processes/instance-path.js';
import type { SandboxUser } from '../sandbox/bubblewrap.js';
import { canNestNamespaces } from '../sandbox/probe.js';
import type { SandboxUsers } from '../sandbox/sandbox-users.js';
import type { SystemTools } from '../system/executables.js';
import type { BrowserSandbox } from './chromium.js';
import { ChromiumBrowser } from './chromium-browser.js';
import {
  createInstanceDirectory,
  type InstanceDirectory,
  removeInstanceDirectory,
} from './instance-directory.js';

/** How the server's browsers are sandboxed, as found at start. */
export interface Sandboxing {
  /** The users browsers run as when the server runs as root; undefined otherwise. */
  readonly users: SandboxUsers | undefined;
  /**
   * Whether browsers run in bubblewrap at all: always, but for the benchmarks, which measure
   * what the sandbox costs against Chromium started straight on the host.
   */
  readonly isEnabled: boolean;
}

/**
 * One real browser: Chromium in its sandbox, its instance directory (its `/home/browser`) and
 * the unprivileged user it runs as.
 */
export class ChromiumInstance implements BrowserInstance {
  readonly chromium: ChromiumBrowser;
  readonly directory: InstanceDirectory;
  readonly user: SandboxUser | undefined;
  readonly #release: () => Promise<void>;
  #closing: Promise<void> | undefined;

  constructor(
    chromium: ChromiumBrowser,
    directory: InstanceDirectory,
    user: SandboxUser | undefined,
    release: () => Promise<void>,
  ) {
    this.chromium = chromium;
    this.directory = directory;
    this.user = user;
    this.#release = release;
  }

  /** The host folder that is its /home/browser. */
  get home(): string {
    return this.directory.home;
  }

  type(text: string): Promise<void> {
    return this.chromium.type(text);
  }

  screenshot(region: Region | undefined): Promise<Uint8Array> {
    return this.chromium.screenshot(region);
  }

  stat(instancePath: string, field: string) {
    return resolveOnInstance(this.home, instancePath, field).kind;
  }

  onExit(listener: () => void): void {
    this.chromium.process.once('exit', listener);
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

/**
 * Starts real Chromium browsers, each in a bubblewrap sandbox of its own, as a user of its own
 * when the server runs as root, with the extensions it loads bound read-only.
 */
export class ChromiumEngine implements BrowserEngine<ChromiumInstance> {
  readonly #chromePath: string;
  readonly #dataDir: string;
  readonly #tools: SystemTools;
  readonly #sandboxing: Sandboxing;
  readonly #logger: Logger;
  /** The host folder of an extension archive's unpacked files, by its key. */
  readonly #extensionFolder: (key: string) => string;
  /** Whether Chromium's own renderer sandbox works inside ours on this host. */
  readonly #isChromiumSandboxed: boolean;

  constructor(options: {
    chromePath: string;
    dataDir: string;
    tools: SystemTools;
    sandboxing: Sandboxing;
    logger: Logger;
    extensionFolder: (key: string) => string;
  }) {
    this.#chromePath = options.chromePath;
    this.#dataDir = options.dataDir;
    this.#tools = options.tools;
    this.#sandboxing = options.sandboxing;
    this.#logger = options.logger;
    this.#extensionFolder = options.extensionFolder;
    this.#isChromiumSandboxed = this.#probeChromiumSandbox();
  }

  /** 400 for a headed browser on a host without Xvfb. */
  check(spec: { readonly headless: boolean }): void {
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

  async launch(spec: LaunchSpec): Promise<ChromiumInstance> {
    const sandbox = this.#sandboxFor();
    const user = sandbox?.user;
    let directory: InstanceDirectory | undefined;
    const release = async () => {
      // Every process of its user goes (none may outlive it, wherever it hid), then its files;
      // then the user is free for another browser.
      if (user) await this.#sandboxing.users?.killAll(user.uid);
      if (directory) removeInstanceDirectory(directory.root);
      if (user) this.#sandboxing.users?.give(user);
    };
    try {
      directory = createInstanceDirectory(this.#dataDir, spec.id, user);
      const chromium = await ChromiumBrowser.launch({
        chromePath: this.#chromePath,
        instance: directory,
        isHeadless: spec.headless,
        xvfbPath: this.#tools.xvfb,
        extensionDirs: spec.extensions.map(this.#extensionFolder),
        viewport: spec.viewport,
        sandbox,
      });
      this.#logger.info(
        { session: spec.id, chromiumPid: chromium.process.pid },
        'chromium started',
      );
      return new ChromiumInstance(chromium, directory, user, release);
    } catch (error) {
      await release();
      throw error;
    }
  }

  /**
   * After a restart: whatever of an earlier run outlived it (the server was killed) runs as a
   * user of this data directory's block and is ended; every instance directory goes.
   */
  recover(): void {
    this.#sandboxing.users?.signalAll();
    removeInstanceDirectory(join(this.#dataDir, 'instances'));
  }

  /** The sandbox of a new browser, with a user of its own; 503 naming bubblewrap without it. */
  #sandboxFor(): BrowserSandbox | undefined {
    if (!this.#sandboxing.isEnabled) return undefined;
    const { bwrap } = this.#tools;
    if (!bwrap) throw refusals.missingTool('Browsers', 'bubblewrap', 'bubblewrap');
    return {
      bubblewrap: bwrap,
      user: this.#sandboxing.users?.take(),
      isChromiumSandboxed: this.#isChromiumSandboxed,
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
