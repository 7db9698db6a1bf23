import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { createIdGenerator, notFound, ServiceError, signSessionJwt } from '@x/service-kernel';
import { type BrowserSession, type CreateBrowserBody, formatTimestamp, HEADERS } from '@x/types';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import type { ExtensionService } from '../extensions/extension-service.js';
import type { SandboxUser } from '../sandbox/bubblewrap.js';
import { canNestNamespaces } from '../sandbox/probe.js';
import type { SandboxUsers } from '../sandbox/sandbox-users.js';
import { findExecutable } from '../system/executables.js';
import type { CdpChannel, ChannelClient } from './cdp-connection.js';
import type { BrowserSandbox } from './chromium.js';
import { ChromiumBrowser } from './chromium-browser.js';
import {
  createInstanceDirectory,
  type InstanceDirectory,
  removeInstanceDirectory,
} from './instance-directory.js';

/** How the server's browsers are sandboxed, as found at start. */
export interface Sandboxing {
  /** bubblewrap; without it no browser starts (503 naming it). */
  readonly bubblewrap: string | undefined;
  /** The users browsers run as when the server runs as root; undefined otherwise. */
  readonly users: SandboxUsers | undefined;
  /**
   * Whether browsers run in bubblewrap at all: always, but for the benchmarks, which measure
   * what the sandbox costs against Chromium started straight on the host.
   */
  readonly isEnabled: boolean;
}

/** A browser that runs, with what the server needs to drive and end it. */
interface LiveBrowser {
  record: BrowserSession;
  readonly chromium: ChromiumBrowser;
  readonly instance: InstanceDirectory;
  /** The unprivileged user its Chromium and processes run as (when the server is root). */
  readonly user: SandboxUser | undefined;
  /** Last API or CDP activity, epoch ms: the idle time-out counts from here. */
  lastActivityAt: number;
}

/** What a browser is started with: the create-browser body, or a pool's configuration. */
export type BrowserSpec = Pick<
  CreateBrowserBody,
  'headless' | 'stealth' | 'kiosk_mode' | 'timeout_seconds'
> &
  Partial<Pick<CreateBrowserBody, 'viewport' | 'extensions' | 'invocation_id' | 'proxy_id'>> & {
    readonly pool?: { readonly id: string; readonly name?: string } | undefined;
  };

/** Viewport of a browser created without one. */
const DEFAULT_VIEWPORT = { width: 1920, height: 1080 } as const;

/** How often idle browsers are looked for. */
const IDLE_SWEEP_MS = 1_000;

const nextId = createIdGenerator();

/**
 * The browsers of the server: each a real Chromium with its own instance directory, recorded in
 * the store so a restart knows which are gone.
 */
export class BrowserService {
  readonly #config: ServerConfig;
  readonly #database: DatabaseSync;
  readonly #jwtSecret: string;
  readonly #logger: Logger;
  readonly #live = new Map<string, LiveBrowser>();
  /** Browsers kept warm in a pool: no idle time-out while nobody holds them. */
  readonly #warm = new Set<string>();
  readonly #deletedListeners = new Set<(id: string) => void>();
  readonly #sweeper: ReturnType<typeof setInterval>;
  /** Browsers being started; shutdown waits for them so none is left running. */
  readonly #startups = new Set<Promise<unknown>>();
  #isClosed = false;
  /** Where Xvfb is: headed browsers run on a display of their own when it is installed. */
  readonly #xvfbPath = findExecutable('Xvfb');

  readonly #extensions: ExtensionService;
  readonly #sandboxing: Sandboxing;
  /** Whether Chromium's own renderer sandbox works inside ours on this host. */
  readonly #isChromiumSandboxed: boolean;

  constructor(
    config: ServerConfig,
    database: DatabaseSync,
    jwtSecret: string,
    logger: Logger,
    extensions: ExtensionService,
    sandboxing: Sandboxing,
  ) {
    this.#extensions = extensions;
    this.#sandboxing = sandboxing;
    this.#isChromiumSandboxed = this.#probeChromiumSandbox(logger);
    this.#config = config;
    this.#database = database;
    this.#jwtSecret = jwtSecret;
    this.#logger = logger;
    this.#recoverFromEarlierRun();
    this.#sweeper = setInterval(() => void this.#deleteIdleBrowsers(), IDLE_SWEEP_MS);
    this.#sweeper.unref();
  }

  /** Starts a browser as POST /browsers asks; 429 with Retry-After at capacity. */
  async create(body: BrowserSpec, origin: string): Promise<BrowserSession> {
    this.check(body);
    if (this.#isClosed) throw new ServiceError('unavailable', 'The server is shutting down.');
    if (this.#live.size + this.#startups.size >= this.#config.maxBrowsers) {
      throw new ServiceError(
        'rate_limited',
        `This server runs at most ${this.#config.maxBrowsers} browsers at once.`,
        {
          headers: { [HEADERS.retryAfter]: '5' },
        },
      );
    }
    // Tracked until it is fully started (or closed again): shutdown waits for it.
    const starting = this.#start(body, origin);
    this.#startups.add(starting);
    try {
      return await starting;
    } finally {
      this.#startups.delete(starting);
    }
  }

  async #start(body: BrowserSpec, origin: string): Promise<BrowserSession> {
    const sandbox = this.#sandboxFor();
    const id = nextId('br');
    const viewport = body.viewport ?? { ...DEFAULT_VIEWPORT };
    const user = sandbox?.user;
    let instance: InstanceDirectory | undefined;
    let chromium: ChromiumBrowser;
    try {
      instance = createInstanceDirectory(this.#config.dataDir, id, user);
      chromium = await ChromiumBrowser.launch({
        chromePath: this.#config.chromePath,
        instance,
        isHeadless: body.headless,
        xvfbPath: this.#xvfbPath,
        extensionDirs: this.#extensions.load(body.extensions ?? []),
        viewport,
        sandbox,
      });
    } catch (error) {
      await this.#release(instance, user);
      this.#logger.error({ err: error }, 'browser failed to start');
      throw new ServiceError('internal_error', 'The browser failed to start.');
    }
    if (this.#isClosed) {
      // Shutdown began while it started: it must not outlive the server.
      await chromium.close();
      await this.#release(instance, user);
      throw new ServiceError('unavailable', 'The server is shutting down.');
    }
    const now = new Date();
    const jwt = signSessionJwt(
      this.#jwtSecret,
      id,
      Math.floor(now.getTime() / 1000) + 24 * 60 * 60,
    );
    const record: BrowserSession = {
      session_id: id,
      created_at: formatTimestamp(now),
      cdp_ws_url: `${origin.replace(/^http/, 'ws')}/browsers/${id}/cdp?jwt=${jwt}`,
      headless: body.headless,
      stealth: body.stealth,
      gpu: false,
      kiosk_mode: body.kiosk_mode,
      timeout_seconds: body.timeout_seconds,
      viewport,
    };
    if (body.invocation_id) record.invocation_id = body.invocation_id;
    if (body.proxy_id) record.proxy_id = body.proxy_id;
    if (body.pool)
      record.pool =
        body.pool.name === undefined
          ? { id: body.pool.id }
          : { id: body.pool.id, name: body.pool.name };
    const live: LiveBrowser = { record, chromium, instance, user, lastActivityAt: now.getTime() };
    this.#live.set(id, live);
    this.#database
      .prepare(
        'INSERT INTO browsers (id, record, pid, invocation_id, created_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(
        id,
        JSON.stringify(record),
        chromium.process.pid ?? null,
        record.invocation_id ?? null,
        record.created_at,
      );
    chromium.process.once('exit', () => {
      // Chromium ended on its own (a crash, a kill): the session is over.
      if (this.#live.get(id) === live) void this.delete(id);
    });
    this.#logger.info({ session: id, chromiumPid: chromium.process.pid }, 'browser started');
    return this.#withUsage(live);
  }

  /**
   * Throws what creating a browser of this spec would answer before starting it: 400 for a
   * headed browser (no Xvfb here), 404 for an extension (none is uploaded yet).
   */
  check(body: BrowserSpec): void {
    if (!body.headless && !this.#xvfbPath) {
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
    this.#extensions.assertExist(body.extensions ?? []);
  }

  /** A running browser, counting the call as activity; 404 when there is none. */
  live(id: string): LiveBrowser {
    const live = this.#live.get(id);
    if (!live) throw notFound('browser session', id);
    live.lastActivityAt = Date.now();
    return live;
  }

  /** Hears about every browser that ends, however it ends. */
  onDeleted(listener: (id: string) => void): void {
    this.#deletedListeners.add(listener);
  }

  /** Whether a pool keeps this browser warm: then it has no idle time-out. */
  setWarm(id: string, isWarm: boolean): void {
    if (isWarm) this.#warm.add(id);
    else this.#warm.delete(id);
    const live = this.#live.get(id);
    if (live) live.lastActivityAt = Date.now();
  }

  /**
   * The browser's instance: the host folder that is its /home/browser and the user it runs as;
   * 404 when the browser does not run.
   */
  instance(id: string): { home: string; user: SandboxUser | undefined } {
    const live = this.live(id);
    return { home: live.instance.home, user: live.user };
  }

  /** Whether a browser runs now. */
  isRunning(id: string): boolean {
    return this.#live.has(id);
  }

  /** Records activity on a browser (its CDP connection is busy). */
  touch(id: string): void {
    const live = this.#live.get(id);
    if (live) live.lastActivityAt = Date.now();
  }

  /**
   * A DevTools channel to a running browser for a client of the CDP proxy; undefined when the
   * browser does not run. The channel ends when the browser does.
   */
  openChannel(id: string, client: ChannelClient): Promise<CdpChannel> | undefined {
    return this.#live.get(id)?.chromium.openChannel(client);
  }

  /** The session record, a deleted one too (with `deleted_at`); 404 when it never existed. */
  get(id: string): BrowserSession {
    const live = this.#live.get(id);
    if (live) return this.#withUsage(live);
    const row = this.#database.prepare('SELECT record FROM browsers WHERE id = ?').get(id) as
      | { record: string }
      | undefined;
    if (!row) throw notFound('browser session', id);
    return JSON.parse(row.record) as BrowserSession;
  }

  /** The running browsers, oldest first; of one invocation when given. */
  list(invocationId?: string): BrowserSession[] {
    return [...this.#live.values()]
      .filter((live) => invocationId === undefined || live.record.invocation_id === invocationId)
      .map((live) => this.#withUsage(live));
  }

  /** Ends a browser: Chromium closes, its instance directory goes, the record keeps `deleted_at`. */
  async delete(id: string): Promise<void> {
    const live = this.#live.get(id);
    if (!live) throw notFound('browser session', id);
    this.#live.delete(id);
    this.#warm.delete(id);
    const deletedAt = formatTimestamp(new Date());
    live.record = {
      ...live.record,
      deleted_at: deletedAt,
      usage: { uptime_ms: Date.now() - Date.parse(live.record.created_at) },
    };
    this.#database
      .prepare('UPDATE browsers SET record = ?, deleted_at = ? WHERE id = ?')
      .run(JSON.stringify(live.record), deletedAt, id);
    await live.chromium.close();
    await this.#release(live.instance, live.user);
    this.#logger.info({ session: id }, 'browser deleted');
    for (const listener of this.#deletedListeners) listener(id);
  }

  /** Ends every browser (shutdown), those still starting included; no new one starts after. */
  async deleteAll(): Promise<void> {
    this.#isClosed = true;
    clearInterval(this.#sweeper);
    await Promise.allSettled([...this.#startups]);
    await Promise.all([...this.#live.keys()].map((id) => this.delete(id).catch(() => undefined)));
  }

  /**
   * The sandbox of a new browser, with a user of its own; 503 naming bubblewrap when there is
   * none (no browser runs unsandboxed).
   */
  #sandboxFor(): BrowserSandbox | undefined {
    if (!this.#sandboxing.isEnabled) return undefined;
    const { bubblewrap, users } = this.#sandboxing;
    if (!bubblewrap) {
      throw new ServiceError(
        'unavailable',
        'Browsers run sandboxed in bubblewrap, which is not installed on this server (apt-get install bubblewrap).',
      );
    }
    return { bubblewrap, user: users?.take(), isChromiumSandboxed: this.#isChromiumSandboxed };
  }

  /**
   * What a browser held goes: every process of its user (none may outlive it, wherever it
   * hid), then its instance directory; then the user is free for another browser.
   */
  async #release(instance: InstanceDirectory | undefined, user: SandboxUser | undefined) {
    if (user) await this.#sandboxing.users?.killAll(user.uid);
    if (instance) removeInstanceDirectory(instance.root);
    if (user) this.#sandboxing.users?.give(user);
  }

  /** Tries Chromium's renderer sandbox inside ours once, and says at start when it cannot run. */
  #probeChromiumSandbox(logger: Logger): boolean {
    const { bubblewrap, users, isEnabled } = this.#sandboxing;
    if (!bubblewrap || !isEnabled) {
      if (isEnabled)
        logger.warn(
          'bubblewrap is not installed: no browser can start (apt-get install bubblewrap)',
        );
      return false;
    }
    const user = users?.take();
    try {
      const works = canNestNamespaces(bubblewrap, user);
      if (!works)
        logger.warn(
          "Chromium's own renderer sandbox cannot run here (this host forbids unprivileged user namespaces): browsers run with --no-sandbox inside the bubblewrap sandbox",
        );
      return works;
    } finally {
      if (user) users?.give(user);
    }
  }

  #withUsage(live: LiveBrowser): BrowserSession {
    return {
      ...live.record,
      usage: { uptime_ms: Math.max(0, Date.now() - Date.parse(live.record.created_at)) },
    };
  }

  async #deleteIdleBrowsers(): Promise<void> {
    const now = Date.now();
    for (const [id, live] of this.#live) {
      if (this.#warm.has(id)) continue;
      if (now - live.lastActivityAt > live.record.timeout_seconds * 1000) {
        this.#logger.info({ session: id }, 'browser idle past its time-out');
        await this.delete(id).catch(() => undefined);
      }
    }
  }

  /**
   * After a restart no browser of the earlier run is driven any more: their records are marked
   * deleted, and a Chromium of theirs that still runs is ended.
   */
  #recoverFromEarlierRun(): void {
    const rows = this.#database
      .prepare('SELECT id, record FROM browsers WHERE deleted_at IS NULL')
      .all() as {
      id: string;
      record: string;
    }[];
    const deletedAt = formatTimestamp(new Date());
    // Whatever of an earlier run outlived it (the server was killed) runs as a user of this
    // data directory's block, and is ended first; without one, its sandboxes died with it.
    this.#sandboxing.users?.signalAll();
    for (const row of rows) {
      const record = { ...(JSON.parse(row.record) as BrowserSession), deleted_at: deletedAt };
      this.#database
        .prepare('UPDATE browsers SET record = ?, deleted_at = ? WHERE id = ?')
        .run(JSON.stringify(record), deletedAt, row.id);
    }
    // No browser of an earlier run is kept: every instance directory goes, those of browsers
    // that never finished starting too.
    removeInstanceDirectory(join(this.#config.dataDir, 'instances'));
    if (rows.length > 0)
      this.#logger.warn({ count: rows.length }, 'browsers of an earlier run marked deleted');
  }
}
