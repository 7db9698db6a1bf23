import type { BrowserInstance } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { putNamed } from '../records/named-records.js';
import type { StoredPool } from '../records/record-store.js';
import { FillRate, startsPerMinute } from './fill-rate.js';
import type { PoolEntry } from './pool-entry.js';

/**
 * The pools this node holds, by id and by name (names are unique among them), and how each is
 * kept in the store.
 */
export class HeldPools<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #pools = new Map<string, PoolEntry>();

  constructor(context: ModelContext<I>) {
    this.#context = context;
  }

  /** The pool held here by that id, if any. */
  get(id: string): PoolEntry | undefined {
    return this.#pools.get(id);
  }

  /** Whether this node holds the pool of that id. */
  has(id: string): boolean {
    return this.#pools.has(id);
  }

  /** The pools held here, oldest first (live: a pool let go meanwhile goes from it). */
  values(): Iterable<PoolEntry> {
    return this.#pools.values();
  }

  /** This node holds the pool from now. */
  add(pool: PoolEntry): void {
    this.#pools.set(pool.id, pool);
  }

  /** This node holds the pool no more. */
  delete(id: string): void {
    this.#pools.delete(id);
  }

  /** Browsers the pools keep, their sizes together: the project's cap counts them. */
  reservedSize(): number {
    let total = 0;
    for (const pool of this.#pools.values()) total += pool.config.size;
    return total;
  }

  /** The pool held here by that id or name; 404 when there is none. */
  find(idOrName: string): PoolEntry {
    const pool = this.lookup(idOrName);
    if (!pool) throw notFound('browser pool', idOrName);
    return pool;
  }

  /** The pool held here by that id or name, if any. */
  lookup(idOrName: string): PoolEntry | undefined {
    return (
      this.#pools.get(idOrName) ??
      [...this.#pools.values()].find((candidate) => candidate.name === idOrName)
    );
  }

  /** 409 when a pool other than `except` has `name`. */
  assertNameFree(name: string | undefined, except?: PoolEntry): void {
    if (name === undefined) return;
    for (const pool of this.#pools.values())
      if (pool !== except && pool.name === name) throw refusals.poolNameTaken(name);
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

  /** A stored pool as this node holds it: no browser yet, its fill rate full. */
  newEntry(stored: StoredPool, origin: string): PoolEntry {
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

  /** Stores a pool; 409 when another pool in the store has its name. */
  save(pool: Pick<PoolEntry, 'id' | 'name' | 'createdAt' | 'config'>): Promise<void> {
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
}
