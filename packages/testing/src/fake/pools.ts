import { browserPoolRecord, notFound, ServiceError, waitInLine } from '@x/service-kernel';
import { type BrowserPool, type BrowserPoolConfig, formatTimestamp } from '@x/types';
import { createBrowser, deleteBrowser, findBrowser, sessionRecord } from './browsers.js';
import { resolveExtensions } from './extensions.js';
import type { HandlerTable } from './handler-types.js';
import type { FakeRuntime } from './runtime.js';
import { type FakeBrowser, type FakePool, findByIdOrName } from './state.js';

function findPool(runtime: FakeRuntime, idOrName: string): FakePool {
  const pool = findByIdOrName(runtime.state.pools, idOrName, (candidate) => candidate.name);
  if (!pool) throw notFound('browser pool', idOrName);
  return pool;
}

function assertNameFree(runtime: FakeRuntime, name: string | undefined, except?: FakePool): void {
  if (name === undefined) return;
  for (const pool of runtime.state.pools.values()) {
    if (pool !== except && pool.name === name) {
      throw new ServiceError('conflict', `A browser pool named "${name}" already exists.`);
    }
  }
}

/** Hands idle browsers to waiting acquire calls, first come first served. */
function serveWaiters(pool: FakePool): void {
  while (pool.waiters.length > 0 && pool.idle.length > 0) {
    const sessionId = pool.idle.shift() as string;
    pool.acquired.add(sessionId);
    pool.waiters.shift()?.(sessionId);
  }
}

/**
 * Starts browsers until the pool holds `size` of them. The fake fills at once rather than at
 * `fill_rate_per_minute`; a browser it cannot start (the service is at capacity) is started on
 * the next fill.
 */
export function fillPool(runtime: FakeRuntime, pool: FakePool): void {
  const { config } = pool;
  while (pool.idle.length + pool.acquired.size < config.size) {
    let browser: FakeBrowser;
    try {
      browser = createBrowser(runtime, pool.origin, {
        headless: config.headless ?? true,
        stealth: config.stealth ?? false,
        kiosk_mode: config.kiosk_mode ?? false,
        timeout_seconds: config.timeout_seconds ?? 600,
        viewport: config.viewport,
        extensions: config.extensions,
        proxy_id: config.proxy_id,
        profile: config.profile,
        pool: pool.name === undefined ? { id: pool.id } : { id: pool.id, name: pool.name },
      });
    } catch (error) {
      // At capacity: the pool stays short until a browser ends somewhere.
      if (error instanceof ServiceError && error.code === 'rate_limited') break;
      throw error;
    }
    pool.idle.push(browser.session.session_id);
  }
  serveWaiters(pool);
}

/** Lets a deleted browser go from its pool, which starts a new one in its place. */
export function removeFromPool(runtime: FakeRuntime, browser: FakeBrowser): void {
  const poolId = browser.session.pool?.id;
  const pool = poolId === undefined ? undefined : runtime.state.pools.get(poolId);
  if (!pool) return;
  const sessionId = browser.session.session_id;
  pool.acquired.delete(sessionId);
  const index = pool.idle.indexOf(sessionId);
  if (index !== -1) pool.idle.splice(index, 1);
  if (runtime.state.pools.has(pool.id)) fillPool(runtime, pool);
}

/** Deletes a pool's idle browsers; with `andAcquired`, the acquired ones too. */
function discardBrowsers(runtime: FakeRuntime, pool: FakePool, andAcquired: boolean): void {
  const ids = andAcquired ? [...pool.idle, ...pool.acquired] : [...pool.idle];
  pool.idle.length = 0;
  if (andAcquired) pool.acquired.clear();
  for (const id of ids) {
    const browser = runtime.state.browsers.get(id);
    if (browser && !browser.session.deleted_at) deleteBrowser(runtime, browser);
  }
}

/** Handlers of the pool operations. */
export const poolHandlers: Pick<
  HandlerTable,
  | 'browserPools.create'
  | 'browserPools.list'
  | 'browserPools.get'
  | 'browserPools.update'
  | 'browserPools.delete'
  | 'browserPools.acquire'
  | 'browserPools.release'
  | 'browserPools.flush'
> = {
  'browserPools.create': ({ runtime, origin, body }) => {
    assertNameFree(runtime, body.name);
    resolveExtensions(runtime, body.extensions ?? []);
    const pool: FakePool = {
      id: runtime.nextId('pool'),
      name: body.name,
      createdAt: formatTimestamp(runtime.clock()),
      origin,
      config: structuredClone(body) as BrowserPoolConfig,
      idle: [],
      acquired: new Set(),
      waiters: [],
    };
    runtime.state.pools.set(pool.id, pool);
    fillPool(runtime, pool);
    return { status: 201, json: browserPoolRecord(pool) };
  },
  'browserPools.list': ({ runtime }) => ({
    status: 200,
    json: [...runtime.state.pools.values()].map((pool) => browserPoolRecord(pool)),
  }),
  'browserPools.get': ({ runtime, params }) => ({
    status: 200,
    json: browserPoolRecord(findPool(runtime, params.id_or_name as string)),
  }),
  'browserPools.update': ({ runtime, params, body }) => {
    const pool = findPool(runtime, params.id_or_name as string);
    assertNameFree(runtime, body.name, pool);
    resolveExtensions(runtime, body.extensions ?? []);
    const changes = Object.fromEntries(
      Object.entries(body).filter(([, value]) => value !== undefined),
    );
    pool.config = { ...pool.config, ...structuredClone(changes) } as BrowserPoolConfig;
    if (body.name !== undefined) pool.name = body.name;
    // Idle browsers were made with the old configuration: replace them.
    discardBrowsers(runtime, pool, false);
    fillPool(runtime, pool);
    return { status: 200, json: browserPoolRecord(pool) };
  },
  'browserPools.delete': ({ runtime, params, query }) => {
    const pool = findPool(runtime, params.id_or_name as string);
    if (pool.acquired.size > 0 && query.force !== true) {
      throw new ServiceError(
        'conflict',
        `Browser pool "${params.id_or_name}" has ${pool.acquired.size} acquired browser(s); release them or delete with force=true.`,
      );
    }
    runtime.state.pools.delete(pool.id);
    discardBrowsers(runtime, pool, true);
    for (const waiter of pool.waiters.splice(0)) waiter(undefined);
    return { status: 204 };
  },
  'browserPools.acquire': async ({ runtime, params, body, signal }) => {
    const pool = findPool(runtime, params.id_or_name as string);
    const free = pool.idle.shift();
    if (free !== undefined) pool.acquired.add(free);
    const sessionId =
      free ?? (await waitInLine(pool.waiters, body.acquire_timeout_seconds * 1000, signal));
    if (sessionId === undefined) return { status: 204 };
    return { status: 200, json: sessionRecord(runtime, findBrowser(runtime, sessionId)) };
  },
  'browserPools.release': ({ runtime, params, body }) => {
    const pool = findPool(runtime, params.id_or_name as string);
    const browser = runtime.state.browsers.get(body.session_id);
    if (!browser || browser.session.pool?.id !== pool.id) {
      throw notFound(`browser session in pool "${params.id_or_name}"`, body.session_id);
    }
    if (browser.session.deleted_at) {
      throw new ServiceError(
        'conflict',
        `Browser session "${body.session_id}" is not acquired: its lease has ended.`,
      );
    }
    if (!pool.acquired.has(body.session_id)) {
      throw new ServiceError('conflict', `Browser session "${body.session_id}" is not acquired.`);
    }
    // The lease's session ends either way, as on the server: the next lease is a new session
    // (a new jwt, nothing of this one). The pool fills again at once, `reuse` or not.
    deleteBrowser(runtime, browser);
    return { status: 204 };
  },
  'browserPools.flush': ({ runtime, params }) => {
    const pool = findPool(runtime, params.id_or_name as string);
    discardBrowsers(runtime, pool, false);
    fillPool(runtime, pool);
    return { status: 204 };
  },
};
