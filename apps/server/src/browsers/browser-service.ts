import type { DatabaseSync } from 'node:sqlite';
import { createIdGenerator, notFound, ServiceError, signSessionJwt } from '@x/service-kernel';
import { type BrowserSession, type CreateBrowserBody, formatTimestamp, HEADERS } from '@x/types';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import type { ExtensionService } from '../extensions/extension-service.js';
import { processesOfProfile } from './chromium.js';
import { ChromiumBrowser } from './chromium-browser.js';
import {
  createInstanceDirectory,
  type InstanceDirectory,
  instanceRoot,
  removeInstanceDirectory,
} from './instance-directory.js';
import { findXvfb } from './virtual-display.js';

/** A browser that runs, with what the server needs to drive and end it. */
interface LiveBrowser {
  record: BrowserSession;
  readonly chromium: ChromiumBrowser;
  readonly instance: InstanceDirectory;
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
  readonly #xvfbPath = findXvfb();

  readonly #extensions: ExtensionService;

  constructor(
    config: ServerConfig,
    database: DatabaseSync,
    jwtSecret: string,
    logger: Logger,
    extensions: ExtensionService,
  ) {
    this.#extensions = extensions;
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
    const id = nextId('br');
    const viewport = body.viewport ?? { ...DEFAULT_VIEWPORT };
    const instance = createInstanceDirectory(this.#config.dataDir, id);
    const launching = ChromiumBrowser.launch({
      chromePath: this.#config.chromePath,
      userDataDir: instance.profile,
      homeDir: instance.home,
      downloadsDir: instance.downloads,
      isHeadless: body.headless,
      xvfbPath: this.#xvfbPath,
      extensionDirs: this.#extensions.load(body.extensions ?? []),
      viewport,
    });
    let chromium: ChromiumBrowser;
    try {
      chromium = await launching;
    } catch (error) {
      removeInstanceDirectory(instance.root);
      this.#logger.error({ err: error }, 'browser failed to start');
      throw new ServiceError('internal_error', 'The browser failed to start.');
    }
    if (this.#isClosed) {
      // Shutdown began while it started: it must not outlive the server.
      await chromium.close();
      removeInstanceDirectory(instance.root);
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
    const live: LiveBrowser = { record, chromium, instance, lastActivityAt: now.getTime() };
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

  /** Makes a browser fresh for its next user: cookies, storage, other tabs and history go. */
  async reset(id: string): Promise<void> {
    await this.live(id).chromium.reset();
  }

  /** The host folder that is the browser's /home/browser; 404 when the browser does not run. */
  home(id: string): string {
    return this.live(id).instance.home;
  }

  /** Records activity on a browser (its CDP connection is busy). */
  touch(id: string): void {
    const live = this.#live.get(id);
    if (live) live.lastActivityAt = Date.now();
  }

  /** The browser's DevTools URL on loopback, for the CDP proxy; undefined when it is not running. */
  devtoolsUrl(id: string): string | undefined {
    return this.#live.get(id)?.chromium.devtoolsUrl;
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
    removeInstanceDirectory(live.instance.root);
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
    // Chromium of an earlier run that outlived it (the server was killed) is ended first.
    for (const pid of processesOfProfile(instanceRoot(this.#config.dataDir, ''), true)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It ended between the look and the kill.
      }
    }
    for (const row of rows) {
      const record = { ...(JSON.parse(row.record) as BrowserSession), deleted_at: deletedAt };
      this.#database
        .prepare('UPDATE browsers SET record = ?, deleted_at = ? WHERE id = ?')
        .run(JSON.stringify(record), deletedAt, row.id);
      removeInstanceDirectory(instanceRoot(this.#config.dataDir, row.id));
    }
    if (rows.length > 0)
      this.#logger.warn({ count: rows.length }, 'browsers of an earlier run marked deleted');
  }
}
