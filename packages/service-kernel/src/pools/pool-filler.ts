import type { BrowserEntry } from '../browsers/browser-entry.js';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext, PoolPeers } from '../model-context.js';
import { ServiceError } from '../service-error.js';
import { browserSpecOf, type PoolEntry } from './pool-entry.js';

/** How one start went: made, refused because the service is full, or failed. */
type StartResult = 'started' | 'full' | 'failed';

/** How long a pool waits before trying again after a browser failed to start (fill rate off). */
const RETRY_MS = 5_000;

/**
 * How long a pool waits after another node it chose turned out full (its load was old) or did
 * not answer (lost or leaving, not yet read so).
 */
const RETRY_FULL_MS = 1_000;

/**
 * Keeps pools at their size: starts browsers as fast as the fill rate lets it (where the
 * settings say so, else all at once), hands each new browser to the first waiting acquire, and
 * tries again later when a start failed. At capacity a pool stays short until a browser ends
 * somewhere.
 */
export class PoolFiller<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;
  /** Starts in flight, by pool. */
  readonly #inFlight = new Map<PoolEntry, Set<Promise<unknown>>>();

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
  }

  /** Browsers the pool still needs to reach its size. */
  missing(pool: PoolEntry): number {
    return pool.config.size - (pool.idle.length + pool.acquired.size + pool.starting);
  }

  /**
   * Starts browsers until the pool holds `size`, as fast as its fill rate lets it (plus `extra`
   * starts outside it: the replacement of a released browser asked to be reused).
   */
  fill(pool: PoolEntry, extra = 0): void {
    if (pool.isDeleted) return;
    clearTimeout(pool.timer);
    pool.timer = undefined;
    const { isFillRateLimited } = this.#context.settings;
    const starts = isFillRateLimited
      ? pool.fillRate.take(this.missing(pool), this.#context.clock().getTime(), extra)
      : this.missing(pool);
    let started = 0;
    let result: StartResult = 'started';
    while (started < starts && result === 'started') {
      result = this.#startOne(pool);
      if (result === 'started') started++;
    }
    pool.isWaitingForRoom = result === 'full';
    if (!isFillRateLimited) return;
    pool.fillRate.giveBack(starts - started);
    // A full service or a failed start has its own way back (a browser ending, a retry); a pool
    // that only ran out of starts waits for the next one.
    if (result === 'started' && this.missing(pool) > 0) {
      this.#retryIn(pool, pool.fillRate.waitMs());
    }
  }

  /**
   * Fills a pool whose fill rate allows a start by now, as the model's clock reads it: the sweep
   * before each call does this, so it is cheap when there is nothing to do. A pool waiting for
   * room is left to the browser that ends; without a fill rate, pools never wait on the clock.
   */
  fillIfDue(pool: PoolEntry): void {
    if (!this.#context.settings.isFillRateLimited || pool.isDeleted) return;
    if (this.missing(pool) <= 0) return;
    // In a cluster, room may come on another node: its browser ending is not heard here.
    if (pool.isWaitingForRoom && !this.#context.settings.poolPeers?.hasRoom()) return;
    if (pool.fillRate.hasStart(this.#context.clock().getTime())) this.fill(pool);
  }

  /**
   * Resolves once every start in flight for the pool has ended (made or failed): where pools
   * fill at once (the fake), a call that fills one answers with it full, even when its browsers
   * name stored things (extensions, a profile, a proxy) the store answers for later.
   */
  async settled(pool: PoolEntry): Promise<void> {
    for (let starts = this.#inFlight.get(pool); starts?.size; starts = this.#inFlight.get(pool))
      await Promise.allSettled([...starts]);
  }

  /**
   * Fills a pool after a call changed it. Where pools fill at once (the fake) the call answers
   * once the starts it made have ended, so its answer shows the pool full.
   */
  async fillAfterCall(pool: PoolEntry, extra = 0): Promise<void> {
    this.fill(pool, extra);
    if (!this.#context.settings.isFillRateLimited) await this.settled(pool);
  }

  /** Stops filling and sends every waiting acquire away empty. */
  stop(pool: PoolEntry): void {
    pool.isDeleted = true;
    clearTimeout(pool.timer);
    for (const waiter of pool.waiters.splice(0)) waiter(undefined);
  }

  #retryIn(pool: PoolEntry, ms: number): void {
    clearTimeout(pool.timer);
    pool.timer = setTimeout(() => this.fill(pool), ms);
    pool.timer.unref?.();
  }

  /**
   * Starts one browser for the pool, unless the service is full or the start fails: here, or in
   * a cluster on the node with room that runs the fewest of the pool's browsers.
   */
  #startOne(pool: PoolEntry): StartResult {
    const peers = this.#context.settings.poolPeers;
    const node = peers?.where((tag) => this.#share(pool, peers, tag));
    if (peers && node !== undefined && node !== peers.self) return this.#startOn(pool, peers, node);
    const here = peers?.self ?? '';
    let started: BrowserEntry<I> | Promise<BrowserEntry<I>>;
    try {
      started = this.#browsers.create(browserSpecOf(pool), pool.origin);
    } catch (error) {
      // Full, or draining with no other node that has room: the pool waits for room.
      if (
        error instanceof ServiceError &&
        (error.code === 'rate_limited' || this.#browsers.isDraining)
      ) {
        return 'full';
      }
      this.#startFailed(pool, error);
      return 'failed';
    }
    if (!(started instanceof Promise)) {
      this.#adopt(pool, started);
      return 'started';
    }
    pool.starting++;
    this.#counting(pool, here, 1);
    const handled = started.then(
      (entry) => {
        pool.starting--;
        this.#counting(pool, here, -1);
        this.#adopt(pool, entry);
      },
      (error: unknown) => {
        pool.starting--;
        this.#counting(pool, here, -1);
        // A spec naming stored things hears the service is full once the store has answered:
        // the pool waits for room as it would have at once.
        if (error instanceof ServiceError && error.code === 'rate_limited') {
          pool.isWaitingForRoom = true;
          return;
        }
        this.#startFailed(pool, error);
      },
    );
    this.#track(pool, handled);
    return 'started';
  }

  /** The pool's browsers on node `tag`: warm, acquired, and starting. */
  #share(pool: PoolEntry, peers: PoolPeers, tag: string): number {
    let count = pool.startingOn.get(tag) ?? 0;
    for (const id of pool.idle) if (peers.nodeOf(id) === tag) count++;
    for (const id of pool.acquired) if (peers.nodeOf(id) === tag) count++;
    return count;
  }

  /** Counts a start on node `tag` until it ends (`#share` reads it). */
  #counting(pool: PoolEntry, tag: string, delta: number): void {
    const count = (pool.startingOn.get(tag) ?? 0) + delta;
    if (count > 0) pool.startingOn.set(tag, count);
    else pool.startingOn.delete(tag);
  }

  /** Starts one browser for the pool on another node of the cluster, `node`. */
  #startOn(pool: PoolEntry, peers: PoolPeers, node: string): StartResult {
    const { project } = this.#context;
    pool.starting++;
    this.#counting(pool, node, 1);
    // Lent to its node while nobody waits in the pool's line: an acquire there takes it at once.
    const lend = pool.waiters.length === 0;
    const handled = peers.start(node, project, browserSpecOf(pool), pool.origin, lend).then(
      (record) => {
        pool.starting--;
        this.#counting(pool, node, -1);
        if (pool.isDeleted) {
          void peers.end(project, record.session_id, 'pool_changed').catch((error: unknown) =>
            // Its node is lost or gone: the cluster ends what that node ran.
            this.#context.log.warn(
              { err: error, session: record.session_id },
              'a pool browser on another node could not be ended',
            ),
          );
          return;
        }
        this.hold(pool, record.session_id);
      },
      (error: unknown) => {
        pool.starting--;
        this.#counting(pool, node, -1);
        if (pool.isDeleted) return;
        // That node filled up since its load was read, or does not answer (lost, or leaving):
        // the next try picks again.
        if (
          error instanceof ServiceError &&
          (error.code === 'rate_limited' || error.code === 'unavailable')
        ) {
          if (this.#context.settings.isFillRateLimited) pool.fillRate.giveBack(1);
          this.#retryIn(pool, RETRY_FULL_MS);
          return;
        }
        this.#startFailed(pool, error);
      },
    );
    this.#track(pool, handled);
    return 'started';
  }

  /** Counts a start in flight until it has ended (`settled` waits for it). */
  #track(pool: PoolEntry, handled: Promise<void>): void {
    const starts = this.#inFlight.get(pool) ?? new Set<Promise<unknown>>();
    this.#inFlight.set(pool, starts);
    starts.add(handled);
    void handled.then(() => {
      starts.delete(handled);
      if (starts.size === 0) this.#inFlight.delete(pool);
    });
  }

  #adopt(pool: PoolEntry, entry: BrowserEntry<I>): void {
    // The pool is gone, or this node began to drain while it started (its end makes the pool
    // start another where browsers may start).
    if (pool.isDeleted || this.#browsers.isDraining) {
      void this.#browsers.end(entry, { reason: 'pool_changed' });
      return;
    }
    this.#browsers.setWarm(entry, true);
    this.hold(pool, entry.record.session_id);
  }

  /** A warm browser joins the pool (new, or given back): the first acquire waiting takes it. */
  hold(pool: PoolEntry, sessionId: string): void {
    pool.idle.push(sessionId);
    while (pool.waiters.length > 0 && pool.idle.length > 0) {
      const sessionId = pool.idle.shift() as string;
      pool.acquired.add(sessionId);
      pool.waiters.shift()?.(sessionId);
    }
  }

  /**
   * A browser could not start. At capacity, the pool stays short until a browser ends somewhere
   * (which refills it); any other failure is retried later.
   */
  #startFailed(pool: PoolEntry, error: unknown): void {
    if (pool.isDeleted) return;
    if (error instanceof ServiceError && error.code === 'rate_limited') return;
    this.#context.log.warn(
      { err: error, pool: pool.id },
      'a pool browser failed to start; trying again later',
    );
    this.#retryIn(
      pool,
      this.#context.settings.isFillRateLimited ? pool.fillRate.waitMs() : RETRY_MS,
    );
  }
}
