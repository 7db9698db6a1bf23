import type { DatabaseSync } from 'node:sqlite';
import {
  browserPoolRecord,
  createIdGenerator,
  notFound,
  ServiceError,
  type Waiter,
  waitInLine,
} from '@x/service-kernel';
import {
  type BrowserPool,
  type BrowserPoolConfig,
  type BrowserSession,
  type CreateBrowserPoolInput,
  formatTimestamp,
  type UpdateBrowserPoolInput,
} from '@x/types';
import type { Logger } from 'pino';
import type { BrowserService, BrowserSpec } from '../browsers/browser-service.js';

/** A pool and the browsers it holds, in memory; its configuration is in the store. */
interface PoolState {
  readonly id: string;
  name: string | undefined;
  readonly createdAt: string;
  config: BrowserPoolConfig;
  /** Where its browsers' URLs point. */
  origin: string;
  /** Warm browsers, oldest first. */
  readonly idle: string[];
  readonly acquired: Set<string>;
  /** Browsers being started for it. */
  starting: number;
  /** Acquire calls waiting for a browser, first come first served. */
  readonly waiters: Waiter<string>[];
  /** Starts it may make now: a bucket refilled at `fill_rate_per_minute`. */
  tokens: number;
  tokensAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  isDeleted: boolean;
}

const nextId = createIdGenerator();

/** Browsers a pool may start per minute: `fill_rate_per_minute` percent of its size, at least one. */
function startsPerMinute(config: BrowserPoolConfig): number {
  return Math.max(1, Math.ceil((config.size * (config.fill_rate_per_minute ?? 10)) / 100));
}

function specOf(pool: PoolState): BrowserSpec {
  const { config } = pool;
  return {
    headless: config.headless ?? true,
    stealth: config.stealth ?? false,
    kiosk_mode: config.kiosk_mode ?? false,
    timeout_seconds: config.timeout_seconds ?? 600,
    ...(config.viewport ? { viewport: config.viewport } : {}),
    ...(config.extensions ? { extensions: config.extensions as BrowserSpec['extensions'] } : {}),
    ...(config.proxy_id ? { proxy_id: config.proxy_id } : {}),
    pool: pool.name === undefined ? { id: pool.id } : { id: pool.id, name: pool.name },
  };
}

/**
 * Pools of warm browsers: each keeps `size` browsers started, refilling at
 * `fill_rate_per_minute`; acquire hands one out (waiting up to its time-out), release takes it
 * back, its session ended, and replaces it. The counts in every answer are the pool's true counts.
 */
export class PoolService {
  readonly #database: DatabaseSync;
  readonly #browsers: BrowserService;
  readonly #logger: Logger;
  readonly #pools = new Map<string, PoolState>();

  constructor(database: DatabaseSync, browsers: BrowserService, logger: Logger, origin: string) {
    this.#database = database;
    this.#browsers = browsers;
    this.#logger = logger;
    browsers.onDeleted((id) => this.#forget(id));
    const rows = database
      .prepare('SELECT id, name, config, created_at FROM pools ORDER BY created_at')
      .all() as {
      id: string;
      name: string | null;
      config: string;
      created_at: string;
    }[];
    // Pools outlive restarts; their browsers do not, so each is filled again.
    for (const row of rows) {
      const config = JSON.parse(row.config) as BrowserPoolConfig;
      const pool = this.#state(row.id, row.name ?? undefined, row.created_at, config, origin);
      this.#pools.set(pool.id, pool);
      this.#fill(pool);
    }
  }

  create(
    body: Required<Pick<CreateBrowserPoolInput, 'size'>> & BrowserPoolConfig,
    origin: string,
  ): BrowserPool {
    this.#assertNameFree(body.name);
    const pool = this.#state(
      nextId('pool'),
      body.name,
      formatTimestamp(new Date()),
      { ...body },
      origin,
    );
    this.#browsers.check(specOf(pool));
    this.#database
      .prepare('INSERT INTO pools (id, name, config, created_at) VALUES (?, ?, ?, ?)')
      .run(pool.id, pool.name ?? null, JSON.stringify(pool.config), pool.createdAt);
    this.#pools.set(pool.id, pool);
    this.#fill(pool);
    return this.#record(pool);
  }

  list(): BrowserPool[] {
    return [...this.#pools.values()].map((pool) => this.#record(pool));
  }

  get(idOrName: string): BrowserPool {
    return this.#record(this.#find(idOrName));
  }

  /** Changes the configuration; idle browsers made with the old one are replaced. */
  async update(
    idOrName: string,
    body: UpdateBrowserPoolInput,
    origin: string,
  ): Promise<BrowserPool> {
    const pool = this.#find(idOrName);
    this.#assertNameFree(body.name, pool);
    const changes = Object.fromEntries(
      Object.entries(body).filter(([, value]) => value !== undefined),
    );
    const config = { ...pool.config, ...changes } as BrowserPoolConfig;
    this.#browsers.check(specOf({ ...pool, config }));
    pool.config = config;
    if (body.name !== undefined) pool.name = body.name;
    pool.origin = origin;
    this.#database
      .prepare('UPDATE pools SET name = ?, config = ? WHERE id = ?')
      .run(pool.name ?? null, JSON.stringify(config), pool.id);
    await this.#discardIdle(pool);
    this.#fill(pool);
    return this.#record(pool);
  }

  /** Deletes a pool and its browsers; 409 while browsers are acquired, unless `force`. */
  async delete(idOrName: string, force: boolean): Promise<void> {
    const pool = this.#find(idOrName);
    if (pool.acquired.size > 0 && !force) {
      throw new ServiceError(
        'conflict',
        `Pool "${idOrName}" has ${pool.acquired.size} acquired browser(s): release them, or delete with force=true.`,
      );
    }
    pool.isDeleted = true;
    clearTimeout(pool.timer);
    this.#pools.delete(pool.id);
    this.#database.prepare('DELETE FROM pools WHERE id = ?').run(pool.id);
    for (const waiter of pool.waiters.splice(0)) waiter(undefined);
    const ids = [...pool.idle, ...pool.acquired];
    pool.idle.length = 0;
    pool.acquired.clear();
    await Promise.all(ids.map((id) => this.#browsers.delete(id).catch(() => undefined)));
  }

  /** A browser of the pool, waiting up to `timeoutSeconds`; undefined when none came free in time. */
  async acquire(
    idOrName: string,
    timeoutSeconds: number,
    signal: AbortSignal,
  ): Promise<BrowserSession | undefined> {
    const pool = this.#find(idOrName);
    const free = pool.idle.shift();
    const sessionId = free ?? (await waitInLine(pool.waiters, timeoutSeconds * 1000, signal));
    if (sessionId === undefined) return undefined;
    if (free !== undefined) pool.acquired.add(free);
    this.#browsers.setWarm(sessionId, false);
    return this.#browsers.get(sessionId);
  }

  /**
   * Takes an acquired browser back, and its session ends: every connection, process, watch and
   * recording of the lease, its files and the storage of every origin go with the browser, and
   * its URLs stop working. A Chromium profile cannot be wiped in place with a guarantee (history,
   * HSTS, HTTP auth, extension storage, …), so the next lease gets a new browser: with `reuse`
   * the pool starts it at once, outside its fill rate; without, at its fill rate.
   */
  async release(idOrName: string, sessionId: string, reuse: boolean): Promise<void> {
    const pool = this.#find(idOrName);
    if (!pool.acquired.has(sessionId)) {
      if (pool.idle.includes(sessionId))
        throw new ServiceError('conflict', `Browser session "${sessionId}" is not acquired.`);
      if (this.#wasLeasedFrom(pool, sessionId)) {
        throw new ServiceError(
          'conflict',
          `Browser session "${sessionId}" is not acquired: its lease has ended.`,
        );
      }
      throw notFound(`browser session in pool "${idOrName}"`, sessionId);
    }
    pool.acquired.delete(sessionId);
    await this.#browsers.delete(sessionId).catch(() => undefined);
    this.#fill(pool, reuse ? 1 : 0);
  }

  /** Whether `sessionId` is an ended session of `pool` (its record says so). */
  #wasLeasedFrom(pool: PoolState, sessionId: string): boolean {
    try {
      const record = this.#browsers.get(sessionId);
      return record.deleted_at !== undefined && record.pool?.id === pool.id;
    } catch {
      return false; // No such session at all.
    }
  }

  /** Replaces every idle browser with a fresh one. */
  async flush(idOrName: string): Promise<void> {
    const pool = this.#find(idOrName);
    await this.#discardIdle(pool);
    this.#fill(pool);
  }

  /** Stops filling (shutdown); the browsers themselves are closed by the browser service. */
  stop(): void {
    for (const pool of this.#pools.values()) {
      clearTimeout(pool.timer);
      pool.isDeleted = true;
      for (const waiter of pool.waiters.splice(0)) waiter(undefined);
    }
  }

  #state(
    id: string,
    name: string | undefined,
    createdAt: string,
    config: BrowserPoolConfig,
    origin: string,
  ): PoolState {
    const perMinute = startsPerMinute(config);
    return {
      id,
      name,
      createdAt,
      config,
      origin,
      idle: [],
      acquired: new Set(),
      starting: 0,
      waiters: [],
      tokens: perMinute,
      tokensAt: Date.now(),
      timer: undefined,
      isDeleted: false,
    };
  }

  #record(pool: PoolState): BrowserPool {
    return browserPoolRecord(pool);
  }

  #find(idOrName: string): PoolState {
    const pool =
      this.#pools.get(idOrName) ??
      [...this.#pools.values()].find((candidate) => candidate.name === idOrName);
    if (!pool) throw notFound('browser pool', idOrName);
    return pool;
  }

  #assertNameFree(name: string | undefined, except?: PoolState): void {
    if (name === undefined) return;
    for (const pool of this.#pools.values()) {
      if (pool !== except && pool.name === name)
        throw new ServiceError('conflict', `A browser pool named "${name}" already exists.`);
    }
  }

  /**
   * Starts browsers until the pool holds `size`, as fast as its fill rate lets it (plus
   * `extraStarts` outside it: replacements of reused browsers).
   */
  #fill(pool: PoolState, extraStarts = 0): void {
    if (pool.isDeleted) return;
    clearTimeout(pool.timer);
    pool.timer = undefined;
    const perMinute = startsPerMinute(pool.config);
    const now = Date.now();
    pool.tokens =
      Math.min(perMinute, pool.tokens + ((now - pool.tokensAt) * perMinute) / 60_000) + extraStarts;
    pool.tokensAt = now;
    while (
      pool.idle.length + pool.acquired.size + pool.starting < pool.config.size &&
      pool.tokens >= 1
    ) {
      pool.tokens -= 1;
      pool.starting++;
      void this.#startOne(pool);
    }
    if (pool.idle.length + pool.acquired.size + pool.starting < pool.config.size) {
      const waitMs = Math.ceil(((1 - pool.tokens) * 60_000) / perMinute);
      pool.timer = setTimeout(() => this.#fill(pool), waitMs);
      pool.timer.unref();
    }
  }

  async #startOne(pool: PoolState): Promise<void> {
    try {
      const session = await this.#browsers.create(specOf(pool), pool.origin);
      pool.starting--;
      if (pool.isDeleted) {
        await this.#browsers.delete(session.session_id).catch(() => undefined);
        return;
      }
      this.#browsers.setWarm(session.session_id, true);
      pool.idle.push(session.session_id);
      this.#serveWaiters(pool);
    } catch (error) {
      pool.starting--;
      this.#logger.warn(
        { err: error, pool: pool.id },
        'a pool browser failed to start; retrying at the fill rate',
      );
      this.#fill(pool);
    }
  }

  #serveWaiters(pool: PoolState): void {
    while (pool.waiters.length > 0 && pool.idle.length > 0) {
      const sessionId = pool.idle.shift() as string;
      pool.acquired.add(sessionId);
      pool.waiters.shift()?.(sessionId);
    }
  }

  async #discardIdle(pool: PoolState): Promise<void> {
    const ids = pool.idle.splice(0);
    await Promise.all(ids.map((id) => this.#browsers.delete(id).catch(() => undefined)));
  }

  /** A browser of a pool ended (deleted, idle past its time-out, crashed): the pool refills. */
  #forget(id: string): void {
    for (const pool of this.#pools.values()) {
      const index = pool.idle.indexOf(id);
      if (index !== -1) pool.idle.splice(index, 1);
      if (index !== -1 || pool.acquired.delete(id)) this.#fill(pool);
    }
  }
}
