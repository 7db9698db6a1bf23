import {
  type BrowserPool,
  type BrowserPoolConfig,
  type BrowserSession,
  formatTimestamp,
  type Page,
  type UpdateBrowserPoolInput,
} from '@x/types';
import type { BrowserEntry } from '../browsers/browser-entry.js';
import type { BrowserModel, BrowserSpec } from '../browsers/browser-model.js';
import type { BrowserInstance } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext, PoolPeers } from '../model-context.js';
import { type NamedListQuery, namedPage } from '../records/named-page.js';
import { findByIdOrName, putNamed } from '../records/named-records.js';
import type { StoredPool } from '../records/record-store.js';
import { ServiceError } from '../service-error.js';
import { FillRate, startsPerMinute } from './fill-rate.js';
import {
  browserSpecOf,
  keptConfig,
  type PoolConfigInput,
  type PoolEntry,
  type PoolView,
  poolRecord,
  RELEASED_KEPT,
  setFields,
} from './pool-entry.js';
import { PoolFiller } from './pool-filler.js';
import { waitInLine } from './wait-in-line.js';

/** How many names of pools other nodes hold a node remembers (`PoolModel.#namesElsewhere`). */
const NAMES_KEPT = 1000;

/** What a hand-out says of a browser its node, which it was lent to, had handed out itself. */
const TAKEN_THERE = Symbol('taken there');

/**
 * Every rule of browser pools: unique names, `size` browsers kept warm and refilled (at
 * `fill_rate_per_minute` where the settings say so), acquire in arrival order with a time-out,
 * release ending the lease's session, update replacing idle browsers, delete refused while
 * browsers are acquired unless forced.
 */
export class PoolModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;
  readonly #pools = new Map<string, PoolEntry>();
  readonly #filler: PoolFiller<I>;
  /**
   * Warm browsers this node runs for pools other nodes of a cluster hold, lent to it (`startFor`):
   * an acquire of their pool this node receives hands one out at once, and tells the pool after.
   */
  readonly #lent = new Set<string>();
  /**
   * Pools other nodes of a cluster hold, by name, as the store last said (at most
   * NAMES_KEPT): which node to ask, without the store's two round trips for each acquire. The
   * node asked resolves the name itself; a name it does not know is read from the store again.
   */
  readonly #namesElsewhere = new Map<string, string>();

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
    this.#filler = new PoolFiller(context, browsers);
  }

  /** Browsers the pools keep, their sizes together: the project's cap counts them. */
  reservedSize(): number {
    let total = 0;
    for (const pool of this.#pools.values()) total += pool.config.size;
    return total;
  }

  /**
   * 429 when pools `size` browsers larger would take the project past its cap, counting what it
   * holds on a cluster's other nodes (`elsewhere`).
   */
  #assertRoom(added: number, elsewhere: number): void {
    const cap = this.#context.quota.sessions();
    if (cap === undefined || added <= 0) return;
    if (this.#browsers.onDemandCount() + this.reservedSize() + elsewhere + added > cap) {
      throw refusals.projectLimit(
        this.#context.project,
        'max_concurrent_sessions',
        cap,
        `a pool of ${added} more browsers would pass it (its browsers and its pools' sizes count)`,
      );
    }
  }

  async create(body: PoolConfigInput, origin: string): Promise<BrowserPool> {
    this.#assertNameFree(body.name);
    this.#assertRoom(body.size, 0);
    const pool = this.#entry(
      {
        id: this.#context.nextId('pool'),
        name: body.name,
        created_at: formatTimestamp(this.#context.clock()),
        config: keptConfig(structuredClone(body)),
      },
      origin,
    );
    await this.#browsers.check(browserSpecOf(pool));
    const elsewhere = await this.#elsewhere(body.size);
    // Checked again after the store answered: another create may have taken the name or room.
    this.#assertNameFree(body.name);
    this.#assertRoom(body.size, elsewhere);
    this.#pools.set(pool.id, pool);
    try {
      await this.#save(pool);
    } catch (error) {
      this.#pools.delete(pool.id);
      throw error;
    }
    await this.#fill(pool);
    return poolRecord(pool);
  }

  /** The pools themselves, live (they change as the pools do). */
  entries(): readonly PoolView[] {
    return [...this.#pools.values()];
  }

  /** The name (or id) of the first pool whose configuration `names` matches, if any. */
  namingConfig(names: (config: BrowserPoolConfig) => boolean): string | undefined {
    for (const pool of this.#pools.values()) if (names(pool.config)) return pool.name ?? pool.id;
    return undefined;
  }

  list(): BrowserPool[] {
    return [...this.#pools.values()].map(poolRecord);
  }

  /** One page of the pools, oldest first, by `name` or `query`. */
  page(query: NamedListQuery): Page<BrowserPool> {
    return namedPage(this.list(), query);
  }

  get(idOrName: string): BrowserPool {
    return poolRecord(this.#find(idOrName));
  }

  /** Changes the fields given; idle browsers made with the old configuration are replaced. */
  async update(idOrName: string, body: UpdateBrowserPoolInput, origin: string) {
    const pool = this.#find(idOrName);
    this.#assertNameFree(body.name, pool);
    const config = keptConfig({ ...pool.config, ...structuredClone(setFields(body)) });
    const name = body.name ?? pool.name;
    await this.#browsers.check(browserSpecOf({ id: pool.id, name, config }));
    const elsewhere = await this.#elsewhere(config.size - pool.config.size);
    this.#assertNameFree(body.name, pool);
    this.#assertRoom(config.size - pool.config.size, elsewhere);
    await this.#save({ ...pool, config, name });
    pool.config = config;
    pool.name = name;
    pool.origin = origin;
    pool.fillRate.setRate(startsPerMinute(config));
    await this.#discardIdle(pool);
    await this.#fill(pool);
    return poolRecord(pool);
  }

  /** Deletes a pool and its browsers; 409 while browsers are acquired, unless `force`. */
  async delete(idOrName: string, force: boolean): Promise<void> {
    const pool = this.#find(idOrName);
    if (pool.acquired.size > 0 && !force)
      throw refusals.poolHasAcquired(idOrName, pool.acquired.size);
    this.#filler.stop(pool);
    this.#pools.delete(pool.id);
    await this.#context.engines.records.pools.delete(pool.id);
    const acquired = [...pool.acquired];
    pool.acquired.clear();
    await Promise.all([this.#discardIdle(pool), this.#discard(acquired)]);
  }

  /**
   * A browser of the pool, waiting up to `timeoutSeconds`; undefined when none came free. In a
   * cluster a warm browser on `receivedBy` (the node the call arrived at; this one by default)
   * goes first; one that ended on its node meanwhile is passed over. A pool another node of the
   * cluster holds hands out a browser it lent this node at once; else it is acquired through
   * that node, which keeps the pool's line.
   */
  async acquire(
    idOrName: string,
    timeoutSeconds: number,
    signal: AbortSignal,
    receivedBy?: string,
  ): Promise<BrowserSession | undefined> {
    const peers = this.#context.settings.poolPeers;
    const pool = this.#lookup(idOrName);
    if (!pool && peers) {
      const lent = this.#takeLent(peers, idOrName);
      if (lent) return lent;
      const asked = () => this.#acquireThroughHolder(peers, idOrName, timeoutSeconds, signal);
      return asked().catch((error: unknown) => {
        // A name remembered for a pool renamed or deleted since: the store says where it is now.
        const isStale =
          error instanceof ServiceError &&
          error.code === 'not_found' &&
          this.#namesElsewhere.delete(idOrName);
        if (!isStale) throw error;
        return asked();
      });
    }
    const held = pool ?? this.#find(idOrName);
    return this.#take(held, timeoutSeconds, signal, receivedBy, (id) => this.#handOut(held, id));
  }

  /**
   * An acquire another node of the cluster (`node`) received, of a pool held here: as `acquire`,
   * a browser that runs on `node` first, and one that does is left to `node` to hand out (its
   * id, still warm), with no call back. A browser taken for a call whose node gave up meanwhile
   * (`signal`) goes back to the pool: nobody holds its lease. `gone`: one of `node`'s handed
   * to it before that had ended there (its end unheard here): the pool lets it go first.
   */
  async acquireFor(
    node: string,
    idOrName: string,
    timeoutSeconds: number,
    signal: AbortSignal,
    gone?: string,
  ): Promise<string | BrowserSession | undefined> {
    const pool = this.#find(idOrName);
    const peers = this.#context.settings.poolPeers;
    if (gone !== undefined && peers?.nodeOf(gone) === node && pool.acquired.delete(gone))
      this.#filler.fill(pool);
    const taken = await this.#take<string | BrowserSession>(
      pool,
      timeoutSeconds,
      signal,
      node,
      (id) => (peers?.nodeOf(id) === node ? Promise.resolve(id) : this.#handOut(pool, id)),
    );
    if (taken === undefined || !signal.aborted) return taken;
    if (typeof taken === 'string') {
      pool.acquired.delete(taken);
      this.#filler.hold(pool, taken);
    } else {
      // Handed out on its node already (its idle time-out runs): it ends, and is replaced.
      await this.release(pool.id, taken.session_id, true);
    }
    return undefined;
  }

  /**
   * Takes the pool's next browser (one on node `near` first) or waits in its line for one, and
   * has `handOut` hand it out; one that ended on its node before it was handed out (`handOut`
   * says undefined) is let go, and the next is taken; one its node had handed out itself
   * (`TAKEN_THERE`) stays acquired, and the next is taken.
   */
  async #take<T>(
    pool: PoolEntry,
    timeoutSeconds: number,
    signal: AbortSignal,
    near: string | undefined,
    handOut: (sessionId: string) => Promise<T | typeof TAKEN_THERE | undefined>,
  ): Promise<T | undefined> {
    const deadline = Date.now() + timeoutSeconds * 1000;
    let wasServed = false;
    for (;;) {
      const free = this.#takeIdle(pool, near);
      if (free !== undefined) pool.acquired.add(free);
      const left = Math.max(0, deadline - Date.now());
      const sessionId = free ?? (await waitInLine(pool.waiters, left, signal, wasServed));
      if (sessionId === undefined) return undefined;
      const handed = await handOut(sessionId);
      if (handed === TAKEN_THERE) {
        // Its node, which it was lent to, handed it out first: it stays acquired, and this
        // caller keeps its place at the head of the line.
        wasServed = true;
        continue;
      }
      if (handed !== undefined) return handed;
      // Ended on its node before it was handed out: the pool lets it go and fills again.
      pool.acquired.delete(sessionId);
      this.#filler.fill(pool);
    }
  }

  /**
   * Hands out a browser taken from a pool held here: its record, its idle time-out running from
   * now where it runs; undefined when it ended on its node meanwhile; `TAKEN_THERE` when the
   * node it was lent to handed it out itself.
   */
  async #handOut(
    pool: PoolEntry,
    sessionId: string,
  ): Promise<BrowserSession | typeof TAKEN_THERE | undefined> {
    const peers = this.#context.settings.poolPeers;
    const local = this.#browsers.peek(sessionId);
    if (local || !peers) {
      const entry = this.#browsers.live(sessionId);
      this.#browsers.setWarm(entry, false);
      return this.#browsers.record(entry);
    }
    // Not live here: on another node, unless it is one of this node's that ended meanwhile.
    if (peers.nodeOf(sessionId) === peers.self) return undefined;
    try {
      return (await peers.lease(this.#context.project, sessionId)) ?? TAKEN_THERE;
    } catch (error) {
      this.#context.log.warn(
        { err: error, pool: pool.id, session: sessionId },
        'a warm browser of the pool on another node could not be handed out',
      );
      return undefined;
    }
  }

  /**
   * Acquires through the cluster's node that holds the pool (found from a warm browser of it
   * here, else the store). A browser of this node it hands back by id is handed out here; one
   * that ended here meanwhile is passed over, and the holder asked again, told it is gone; one
   * handed out here meanwhile is passed over too.
   */
  async #acquireThroughHolder(
    peers: PoolPeers,
    idOrName: string,
    timeoutSeconds: number,
    signal: AbortSignal,
  ): Promise<BrowserSession | undefined> {
    const poolId = await this.#heldElsewhere(idOrName);
    if (poolId === undefined) throw notFound('browser pool', idOrName);
    const holder = peers.nodeOf(poolId);
    // Held here, by the store's reading, but not taken yet (it moved here from a lost node).
    if (holder === peers.self) throw refusals.poolMoving();
    const deadline = Date.now() + timeoutSeconds * 1000;
    let gone: string | undefined;
    for (;;) {
      const left = Math.max(0, deadline - Date.now()) / 1000;
      const { project } = this.#context;
      const taken = await peers
        .acquire(holder, project, idOrName, left, signal, gone)
        .catch((error: unknown) => {
          // The caller gave up while it waited in the holder's line, as it may in a line here.
          if (signal.aborted) return undefined;
          throw error;
        });
      if (typeof taken !== 'string') return taken;
      const entry = this.#browsers.peek(taken);
      const handed = entry && this.handOutHere(entry);
      if (handed) return handed;
      // Ended here meanwhile (the holder is told on the next ask), or handed out here since
      // it was lent (the holder counts it acquired already).
      gone = entry ? undefined : taken;
    }
  }

  /**
   * The id of a pool another node holds: a warm browser of it here names it, else the name as
   * last read, else the store.
   */
  async #heldElsewhere(idOrName: string): Promise<string | undefined> {
    for (const entry of this.#browsers.entries()) {
      const pool = entry.record.pool;
      if (entry.isWarm && pool && (pool.id === idOrName || pool.name === idOrName)) return pool.id;
    }
    const known = this.#namesElsewhere.get(idOrName);
    if (known !== undefined) return known;
    const found = (await findByIdOrName(this.#context.engines.records.pools, idOrName))?.id;
    if (found !== undefined && found !== idOrName) {
      if (this.#namesElsewhere.size >= NAMES_KEPT) this.#namesElsewhere.clear();
      this.#namesElsewhere.set(idOrName, found);
    }
    return found;
  }

  /**
   * The oldest warm browser of pool `idOrName` (held elsewhere) lent to this node, handed out
   * here; the pool's node is told after. Undefined when none is.
   */
  #takeLent(peers: PoolPeers, idOrName: string): BrowserSession | undefined {
    for (const id of this.#lent) {
      const entry = this.#browsers.peek(id);
      if (!entry?.isWarm) {
        this.#lent.delete(id);
        continue;
      }
      const pool = entry.record.pool;
      if (!pool || (pool.id !== idOrName && pool.name !== idOrName)) continue;
      const handed = this.handOutHere(entry);
      if (!handed) continue;
      peers.taken(this.#context.project, pool.id, id);
      return handed;
    }
    return undefined;
  }

  /**
   * Starts a browser here for a pool another node of a cluster holds, warm; with `lend`, an
   * acquire of that pool this node receives may hand it out itself (`acquire`).
   */
  async startForPool(poolId: string, origin: string, lend: boolean): Promise<BrowserSession> {
    const stored = await this.#context.engines.records.pools.get(poolId);
    if (!stored) throw notFound('browser pool', poolId);
    return this.startFor(
      browserSpecOf({ id: stored.id, name: stored.name ?? undefined, config: stored.config }),
      origin,
      lend,
    );
  }

  /**
   * Starts a browser here for a pool another node of a cluster holds, warm (see `startForPool`).
   */
  async startFor(spec: BrowserSpec, origin: string, lend: boolean): Promise<BrowserSession> {
    const entry = await this.#browsers.create(spec, origin);
    // This node began to drain while it started: it hands none out, another node starts one.
    if (this.#browsers.isDraining) {
      await this.#browsers.endSoon(entry, { reason: 'pool_changed' });
      throw refusals.draining();
    }
    this.#browsers.setWarm(entry, true);
    if (lend) this.#lent.add(entry.record.session_id);
    return this.#browsers.record(entry);
  }

  /**
   * Hands out a warm pool browser that runs here (its idle time-out runs from now): its record;
   * undefined when it is warm no more. Every hand-out of a browser a cluster's pool keeps comes
   * here, on the node that runs it, so none is handed out twice, whichever node asks.
   */
  handOutHere(entry: BrowserEntry<I>): BrowserSession | undefined {
    this.#lent.delete(entry.record.session_id);
    if (!entry.isWarm) return undefined;
    this.#browsers.setWarm(entry, false);
    return this.#browsers.record(entry);
  }

  /**
   * Node-side news for pool `poolId` held here: browser `sessionId`, lent to the node that runs
   * it, was handed out there. It counts as acquired (its release comes here).
   */
  takenThere(poolId: string, sessionId: string): void {
    const pool = this.#pools.get(poolId);
    const index = pool?.idle.indexOf(sessionId) ?? -1;
    if (!pool || index === -1) return;
    pool.idle.splice(index, 1);
    pool.acquired.add(sessionId);
  }

  /** The first warm browser, one on node `receivedBy` (else this one) first, taken off the list. */
  #takeIdle(pool: PoolEntry, receivedBy: string | undefined): string | undefined {
    const peers = this.#context.settings.poolPeers;
    if (!peers) return pool.idle.shift();
    const near = receivedBy ?? peers.self;
    const index = pool.idle.findIndex((id) => peers.nodeOf(id) === near);
    return index === -1 ? pool.idle.shift() : pool.idle.splice(index, 1)[0];
  }

  /**
   * Takes an acquired browser back, and its session ends: every connection, process, watch and
   * recording of the lease, its files and the storage of every origin go with the browser, and
   * its URLs stop working. A browser profile cannot be wiped in place with a guarantee, so the
   * next lease is a new browser: with `reuse` the pool starts it at once, outside its fill rate.
   */
  async release(idOrName: string, sessionId: string, reuse: boolean): Promise<void> {
    const pool = this.#find(idOrName);
    if (pool.idle.includes(sessionId) && (await this.#wasTakenThere(sessionId)))
      this.takenThere(pool.id, sessionId);
    if (!pool.acquired.has(sessionId)) {
      if (pool.idle.includes(sessionId)) throw refusals.notAcquired(sessionId);
      if (pool.released.has(sessionId)) throw refusals.leaseEnded(sessionId);
      const record = await this.#context.engines.records.browsers.get(sessionId);
      if (record?.deleted_at && record.pool?.id === pool.id) throw refusals.leaseEnded(sessionId);
      throw refusals.notInPool(idOrName, sessionId);
    }
    pool.acquired.delete(sessionId);
    pool.released.add(sessionId);
    for (const oldest of pool.released) {
      if (pool.released.size <= RELEASED_KEPT) break;
      pool.released.delete(oldest);
    }
    const entry = this.#browsers.peek(sessionId);
    // The lease is over once its session is; its browser's clean-up goes on beside the
    // replacement's start (both count among the node's browsers).
    if (entry) await this.#browsers.endSoon(entry, { reason: 'released' });
    else await this.#endElsewhere(sessionId, 'released');
    await this.#fill(pool, reuse ? 1 : 0);
  }

  /**
   * Whether a warm browser of a pool held here, which runs on another node, was handed out by
   * that node (it was lent to it) before the news reached this one.
   */
  async #wasTakenThere(sessionId: string): Promise<boolean> {
    const peers = this.#context.settings.poolPeers;
    if (!peers || peers.nodeOf(sessionId) === peers.self) return false;
    // Its node does not answer: the browser counts as idle still, and its release is refused.
    const isWarm = await peers.warmth(this.#context.project, sessionId).catch((error: unknown) => {
      this.#context.log.warn(
        { err: error, session: sessionId },
        'a pool browser on another node could not be asked whether it is warm',
      );
      return undefined;
    });
    return isWarm === false;
  }

  /** Replaces every idle browser with a fresh one. */
  async flush(idOrName: string): Promise<void> {
    const pool = this.#find(idOrName);
    await this.#discardIdle(pool);
    await this.#fill(pool);
  }

  /**
   * A browser ended (deleted, idle, crashed, released): its pool lets it go, and every pool left
   * short (by it, or earlier by the service being full) fills again. A browser of a pool another
   * node of a cluster holds (started here for it) is that node's to hear of, unless this is that
   * node hearing it (`isFromElsewhere`).
   */
  forget(record: BrowserSession, isFromElsewhere = false): void {
    this.#lent.delete(record.session_id);
    const owner = record.pool && this.#pools.get(record.pool.id);
    if (owner) {
      const index = owner.idle.indexOf(record.session_id);
      if (index !== -1) owner.idle.splice(index, 1);
      owner.acquired.delete(record.session_id);
    } else if (record.pool && !isFromElsewhere) {
      this.#context.settings.poolPeers?.ended(this.#context.project, record);
    }
    for (const pool of this.#pools.values()) if (pool.timer === undefined) this.#filler.fill(pool);
  }

  /**
   * Whether pool `poolId` here holds browser `sessionId` (warm, acquired or starting for it);
   * undefined when this node does not hold the pool.
   */
  holds(poolId: string, sessionId: string): boolean | undefined {
    const pool = this.#pools.get(poolId);
    if (!pool) return undefined;
    return pool.idle.includes(sessionId) || pool.acquired.has(sessionId) || pool.starting > 0;
  }

  /** Whether pool `poolId` here has browser `sessionId` handed out. */
  hasAcquired(poolId: string, sessionId: string): boolean {
    return this.#pools.get(poolId)?.acquired.has(sessionId) ?? false;
  }

  /**
   * A cluster lost nodes (`isOf` picks their browsers by id): the pools here let go of the
   * browsers they held there, and fill again.
   */
  forgetLost(isOf: (sessionId: string) => boolean): void {
    for (const pool of this.#pools.values()) {
      const kept = pool.idle.filter((id) => !isOf(id));
      pool.idle.splice(0, pool.idle.length, ...kept);
      for (const id of [...pool.acquired]) if (isOf(id)) pool.acquired.delete(id);
      this.#filler.fill(pool);
    }
  }

  /**
   * Takes the stored pools this node holds and has not yet, and fills them: at start, those kept
   * from an earlier run (their browsers did not outlive it); in a cluster, also those moved here
   * from a node lost or gone, with their browsers still running on the other nodes (warm ones
   * to hand out, acquired ones to take back). Lets go of the pools it holds no more (moved
   * elsewhere while this node was cut off), ending the browsers they had here.
   */
  async restore(origin: string): Promise<void> {
    const { owns = () => true } = this.#context.settings;
    for (const pool of [...this.#pools.values()]) {
      if (owns(pool.id)) continue;
      this.#filler.stop(pool);
      this.#pools.delete(pool.id);
      // Those on other nodes are the new holder's.
      const here = [...pool.idle.splice(0), ...pool.acquired].filter((id) =>
        this.#browsers.peek(id),
      );
      pool.acquired.clear();
      await this.#discard(here);
    }
    const taken: PoolEntry[] = [];
    for (const stored of await this.#context.engines.records.pools.list()) {
      if (!owns(stored.id) || this.#pools.has(stored.id)) continue;
      const pool = this.#entry(stored, origin);
      this.#pools.set(pool.id, pool);
      taken.push(pool);
    }
    if (taken.length > 0 && this.#context.settings.poolPeers) await this.#takeBrowsers(taken);
    for (const pool of taken) this.#filler.fill(pool);
  }

  /** The browsers pools moved here had on every node, warm or acquired, found from the store. */
  async #takeBrowsers(pools: readonly PoolEntry[]): Promise<void> {
    const peers = this.#context.settings.poolPeers;
    const byId = new Map(pools.map((pool) => [pool.id, pool]));
    const open = await this.#context.engines.records.browsers.list({ isOpen: true });
    await Promise.all(
      open.map(async (record) => {
        const pool = record.pool && byId.get(record.pool.id);
        if (!pool || !peers) return;
        const id = record.session_id;
        const entry = this.#browsers.peek(id);
        const isWarm = entry
          ? entry.isWarm
          : await peers.warmth(this.#context.project, id).catch((error: unknown) => {
              // Its node does not answer: the pool leaves the browser out, as one gone.
              this.#context.log.warn(
                { err: error, session: id, pool: pool.id },
                'a pool browser on another node could not be asked whether it is warm',
              );
              return undefined;
            });
        if (isWarm === undefined || pool.isDeleted) return;
        if (isWarm) pool.idle.push(id);
        else pool.acquired.add(id);
      }),
    );
  }

  /**
   * Adds a pool record as given (the fake's seeds): filled to its size, `acquired_count` of its
   * browsers handed out already. Needs an engine that launches at once.
   */
  seed(record: BrowserPool, origin: string): void {
    const pool = this.#entry(
      {
        id: record.id,
        name: record.name,
        created_at: record.created_at,
        config: structuredClone(record.browser_pool_config),
      },
      origin,
    );
    // The fake's store has written it by the time this returns.
    this.#save(pool).catch((error: unknown) => {
      this.#context.log.error({ err: error, pool: pool.id }, 'a seeded pool could not be stored');
    });
    this.#pools.set(pool.id, pool);
    // A seeded pool is full when seeding returns, whatever its fill rate.
    this.#filler.fill(pool, record.browser_pool_config.size);
    for (const sessionId of pool.idle.splice(0, record.acquired_count)) {
      pool.acquired.add(sessionId);
      const entry = this.#browsers.peek(sessionId);
      if (entry) this.#browsers.setWarm(entry, false);
    }
    this.#filler.fill(pool);
  }

  /**
   * Housekeeping: every pool left short that its fill rate now lets start a browser starts it
   * (a timer does this too; a sweep also follows a clock that is not the real one).
   */
  sweep(): void {
    for (const pool of this.#pools.values()) this.#filler.fillIfDue(pool);
  }

  /** Stops filling and sends every waiting acquire away empty (shutdown). */
  close(): void {
    for (const pool of this.#pools.values()) this.#filler.stop(pool);
  }

  /** What the project holds on a cluster's other nodes, read only when a cap and growth ask. */
  #elsewhere(added: number): Promise<number> {
    if (added <= 0 || this.#context.quota.sessions() === undefined) return Promise.resolve(0);
    return this.#browsers.elsewhere();
  }

  #entry(stored: StoredPool, origin: string): PoolEntry {
    return {
      id: stored.id,
      name: stored.name,
      createdAt: stored.created_at,
      config: stored.config,
      origin,
      idle: [],
      acquired: new Set(),
      released: new Set(),
      starting: 0,
      startingOn: new Map(),
      waiters: [],
      fillRate: new FillRate(startsPerMinute(stored.config), this.#context.clock().getTime()),
      timer: undefined,
      isDeleted: false,
      isWaitingForRoom: false,
    };
  }

  /**
   * Fills a pool after a call changed it. Where pools fill at once (the fake) the call answers
   * once the starts it made have ended, so its answer shows the pool full.
   */
  async #fill(pool: PoolEntry, extra = 0): Promise<void> {
    this.#filler.fill(pool, extra);
    if (!this.#context.settings.isFillRateLimited) await this.#filler.settled(pool);
  }

  #save(pool: Pick<PoolEntry, 'id' | 'name' | 'createdAt' | 'config'>): Promise<void> {
    const stored: StoredPool = {
      id: pool.id,
      name: pool.name,
      created_at: pool.createdAt,
      config: pool.config,
    };
    return putNamed(
      this.#context.engines.records.pools,
      pool.id,
      stored,
      pool.name,
      'pool',
      {},
      (name) => refusals.poolNameTaken(name),
    );
  }

  #find(idOrName: string): PoolEntry {
    const pool = this.#lookup(idOrName);
    if (!pool) throw notFound('browser pool', idOrName);
    return pool;
  }

  /** The pool held here by that id or name, if any. */
  #lookup(idOrName: string): PoolEntry | undefined {
    return (
      this.#pools.get(idOrName) ??
      [...this.#pools.values()].find((candidate) => candidate.name === idOrName)
    );
  }

  #assertNameFree(name: string | undefined, except?: PoolEntry): void {
    if (name === undefined) return;
    for (const pool of this.#pools.values())
      if (pool !== except && pool.name === name) throw refusals.poolNameTaken(name);
  }

  /** Ends browsers the pool no longer keeps, here and on the other nodes of a cluster. */
  async #discard(ids: readonly string[]): Promise<void> {
    await Promise.all(
      ids.map((id) => {
        const entry = this.#browsers.peek(id);
        return entry
          ? this.#browsers.end(entry, { reason: 'pool_changed' })
          : this.#endElsewhere(id, 'pool_changed');
      }),
    );
  }

  /**
   * Ends the pool's idle browsers. One a node was lent and handed out itself, unheard here yet,
   * is not idle: it stays, acquired (a pool deleted leaves it to its lease).
   */
  async #discardIdle(pool: PoolEntry): Promise<void> {
    await Promise.all(
      pool.idle.splice(0).map(async (id) => {
        const entry = this.#browsers.peek(id);
        if (entry) return this.#browsers.end(entry, { reason: 'pool_changed' });
        if (!(await this.#endElsewhere(id, 'pool_changed', true)) && !pool.isDeleted)
          pool.acquired.add(id);
      }),
    );
  }

  /**
   * Ends a pool browser another node of a cluster runs (`ifWarm`: only while it is warm); false
   * when it was handed out there instead.
   */
  async #endElsewhere(
    id: string,
    reason: 'released' | 'pool_changed',
    ifWarm = false,
  ): Promise<boolean> {
    const peers = this.#context.settings.poolPeers;
    if (!peers || peers.nodeOf(id) === peers.self) return true;
    return peers.end(this.#context.project, id, reason, ifWarm).catch((error: unknown) => {
      // Its node is lost or gone: the cluster ends what that node ran.
      this.#context.log.warn(
        { err: error, session: id },
        'a pool browser on another node could not be ended',
      );
      return true;
    });
  }
}
