import {
  type BrowserPool,
  type BrowserPoolConfig,
  formatTimestamp,
  type Page,
  type UpdateBrowserPoolInput,
} from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { refusals } from '../messages.js';
import { type NamedListQuery, namedPage } from '../records/named-page.js';
import { startsPerMinute } from './fill-rate.js';
import type { PoolEndings } from './pool-endings.js';
import {
  browserSpecOf,
  keptConfig,
  type PoolConfigInput,
  type PoolEntry,
  type PoolView,
  poolRecord,
  setFields,
} from './pool-entry.js';
import type { PoolParts } from './pool-parts.js';

/**
 * The pool records: created with a unique name and room under the project's cap, read, changed
 * (idle browsers made with the old configuration replaced), deleted (refused while browsers are
 * acquired unless forced), seeded, and taken from the store by the node that holds them.
 */
export class PoolRecords<I extends BrowserInstance> {
  readonly #endings: PoolEndings<I>;

  readonly #parts: PoolParts<I>;

  constructor(parts: PoolParts<I>, endings: PoolEndings<I>) {
    this.#parts = parts;
    this.#endings = endings;
  }

  /**
   * 429 when pools `size` browsers larger would take the project past its cap, counting what it
   * holds on a cluster's other nodes (`elsewhere`).
   */
  #assertRoom(added: number, elsewhere: number): void {
    const cap = this.#parts.context.quota.sessions();
    if (cap === undefined || added <= 0) return;
    if (
      this.#parts.browsers.onDemandCount() + this.#parts.held.reservedSize() + elsewhere + added >
      cap
    ) {
      throw refusals.projectLimit(
        this.#parts.context.project,
        'max_concurrent_sessions',
        cap,
        `a pool of ${added} more browsers would pass it (its browsers and its pools' sizes count)`,
      );
    }
  }

  /** What the project holds on a cluster's other nodes, read only when a cap and growth ask. */
  #elsewhere(added: number): Promise<number> {
    if (added <= 0 || this.#parts.context.quota.sessions() === undefined) return Promise.resolve(0);
    return this.#parts.browsers.elsewhere();
  }

  async create(body: PoolConfigInput, origin: string): Promise<BrowserPool> {
    this.#parts.held.assertNameFree(body.name);
    this.#assertRoom(body.size, 0);
    const pool = this.#parts.held.newEntry(
      {
        id: this.#parts.context.nextId('pool'),
        name: body.name,
        created_at: formatTimestamp(this.#parts.context.clock()),
        config: keptConfig(structuredClone(body)),
      },
      origin,
    );
    await this.#parts.browsers.check(browserSpecOf(pool));
    const elsewhere = await this.#elsewhere(body.size);
    // Checked again after the store answered: another create may have taken the name or room.
    this.#parts.held.assertNameFree(body.name);
    this.#assertRoom(body.size, elsewhere);
    this.#parts.held.add(pool);
    try {
      await this.#parts.held.save(pool);
    } catch (error) {
      this.#parts.held.delete(pool.id);
      throw error;
    }
    await this.#parts.filler.fillAfterCall(pool);
    return poolRecord(pool);
  }

  /** The pools themselves, live (they change as the pools do). */
  entries(): readonly PoolView[] {
    return [...this.#parts.held.values()];
  }

  /** The name (or id) of the first pool whose configuration `names` matches, if any. */
  namingConfig(names: (config: BrowserPoolConfig) => boolean): string | undefined {
    for (const pool of this.#parts.held.values())
      if (names(pool.config)) return pool.name ?? pool.id;
    return undefined;
  }

  list(): BrowserPool[] {
    return [...this.#parts.held.values()].map(poolRecord);
  }

  /** One page of the pools, oldest first, by `name` or `query`. */
  page(query: NamedListQuery): Page<BrowserPool> {
    return namedPage(this.list(), query);
  }

  get(idOrName: string): BrowserPool {
    return poolRecord(this.#parts.held.find(idOrName));
  }

  /** Changes the fields given; idle browsers made with the old configuration are replaced. */
  async update(
    idOrName: string,
    body: UpdateBrowserPoolInput,
    origin: string,
  ): Promise<BrowserPool> {
    const pool = this.#parts.held.find(idOrName);
    this.#parts.held.assertNameFree(body.name, pool);
    const config = keptConfig({ ...pool.config, ...structuredClone(setFields(body)) });
    const name = body.name ?? pool.name;
    await this.#parts.browsers.check(browserSpecOf({ id: pool.id, name, config }));
    const elsewhere = await this.#elsewhere(config.size - pool.config.size);
    this.#parts.held.assertNameFree(body.name, pool);
    this.#assertRoom(config.size - pool.config.size, elsewhere);
    await this.#parts.held.save({ ...pool, config, name });
    pool.config = config;
    pool.name = name;
    pool.origin = origin;
    pool.fillRate.setRate(startsPerMinute(config));
    await this.#endings.discardIdle(pool);
    await this.#parts.filler.fillAfterCall(pool);
    return poolRecord(pool);
  }

  /** Deletes a pool and its browsers; 409 while browsers are acquired, unless `force`. */
  async delete(idOrName: string, force: boolean): Promise<void> {
    const pool = this.#parts.held.find(idOrName);
    if (pool.acquired.size > 0 && !force)
      throw refusals.poolHasAcquired(idOrName, pool.acquired.size);
    this.#parts.filler.stop(pool);
    this.#parts.held.delete(pool.id);
    await this.#parts.context.engines.records.pools.delete(pool.id);
    const acquired = [...pool.acquired];
    pool.acquired.clear();
    await Promise.all([this.#endings.discardIdle(pool), this.#endings.discard(acquired)]);
  }

  /** Replaces every idle browser with a fresh one. */
  async flush(idOrName: string): Promise<void> {
    const pool = this.#parts.held.find(idOrName);
    await this.#endings.discardIdle(pool);
    await this.#parts.filler.fillAfterCall(pool);
  }

  /**
   * Takes the stored pools this node holds and has not yet, and fills them: at start, those kept
   * from an earlier run (their browsers did not outlive it); in a cluster, also those moved here
   * from a node lost or gone, with their browsers still running on the other nodes (warm ones
   * to hand out, acquired ones to take back). Lets go of the pools it holds no more (moved
   * elsewhere while this node was cut off), ending the browsers they had here.
   */
  async restore(origin: string): Promise<void> {
    const { owns = () => true } = this.#parts.context.settings;
    for (const pool of [...this.#parts.held.values()]) {
      if (owns(pool.id)) continue;
      this.#parts.filler.stop(pool);
      this.#parts.held.delete(pool.id);
      // Those on other nodes are the new holder's.
      const here = [...pool.idle.splice(0), ...pool.acquired].filter((id) =>
        this.#parts.browsers.peek(id),
      );
      pool.acquired.clear();
      await this.#endings.discard(here);
    }
    const taken: PoolEntry[] = [];
    for (const stored of await this.#parts.context.engines.records.pools.list()) {
      if (!owns(stored.id) || this.#parts.held.has(stored.id)) continue;
      const pool = this.#parts.held.newEntry(stored, origin);
      this.#parts.held.add(pool);
      taken.push(pool);
    }
    if (taken.length > 0 && this.#parts.context.settings.poolPeers)
      await this.#parts.cluster.takeBrowsers(taken);
    for (const pool of taken) this.#parts.filler.fill(pool);
  }

  /**
   * Adds a pool record as given (the fake's seeds): filled to its size, `acquired_count` of its
   * browsers handed out already. Needs an engine that launches at once.
   */
  seed(record: BrowserPool, origin: string): void {
    const pool = this.#parts.held.newEntry(
      {
        id: record.id,
        name: record.name,
        created_at: record.created_at,
        config: structuredClone(record.browser_pool_config),
      },
      origin,
    );
    // The fake's store has written it by the time this returns.
    this.#parts.held.save(pool).catch((error: unknown) => {
      this.#parts.context.log.error(
        { err: error, pool: pool.id },
        'a seeded pool could not be stored',
      );
    });
    this.#parts.held.add(pool);
    // A seeded pool is full when seeding returns, whatever its fill rate.
    this.#parts.filler.fill(pool, record.browser_pool_config.size);
    for (const sessionId of pool.idle.splice(0, record.acquired_count)) {
      pool.acquired.add(sessionId);
      const entry = this.#parts.browsers.peek(sessionId);
      if (entry) this.#parts.browsers.setWarm(entry, false);
    }
    this.#parts.filler.fill(pool);
  }
}
