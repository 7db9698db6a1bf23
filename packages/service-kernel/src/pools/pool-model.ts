import type {
  BrowserPool,
  BrowserPoolConfig,
  BrowserSession,
  Page,
  UpdateBrowserPoolInput,
} from '@x/types';
import type { BrowserEntry } from '../browsers/browser-entry.js';
import type { BrowserModel, BrowserSpec } from '../browsers/browser-model.js';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import type { NamedListQuery } from '../records/named-page.js';
import { HeldPools } from './held-pools.js';
import { PoolCluster } from './pool-cluster.js';
import { PoolEndings } from './pool-endings.js';
import type { PoolConfigInput, PoolView } from './pool-entry.js';
import { PoolFiller } from './pool-filler.js';
import { PoolLeases } from './pool-leases.js';
import { PoolRecords } from './pool-records.js';

/**
 * Every rule of browser pools: unique names, `size` browsers kept warm and refilled (at
 * `fill_rate_per_minute` where the settings say so), acquire in arrival order with a time-out,
 * release ending the lease's session, update replacing idle browsers, delete refused while
 * browsers are acquired unless forced. Each job is a part of its own (the pools held, their
 * records, filling, leases, endings, the cluster's other nodes); this class holds them together
 * and is what the rest of the service uses.
 */
export class PoolModel<I extends BrowserInstance> {
  readonly #held: HeldPools<I>;
  readonly #filler: PoolFiller<I>;
  readonly #cluster: PoolCluster<I>;
  readonly #endings: PoolEndings<I>;
  readonly #leases: PoolLeases<I>;
  readonly #records: PoolRecords<I>;

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>) {
    this.#held = new HeldPools(context);
    this.#filler = new PoolFiller(context, browsers);
    this.#cluster = new PoolCluster(context, browsers, this.#held);
    const parts = {
      context,
      browsers,
      held: this.#held,
      filler: this.#filler,
      cluster: this.#cluster,
    };
    this.#endings = new PoolEndings(parts);
    this.#leases = new PoolLeases(parts);
    this.#records = new PoolRecords(parts, this.#endings);
  }

  /** Browsers the pools keep, their sizes together: the project's cap counts them. */
  reservedSize(): number {
    return this.#held.reservedSize();
  }

  create(body: PoolConfigInput, origin: string): Promise<BrowserPool> {
    return this.#records.create(body, origin);
  }

  /** The pools themselves, live (they change as the pools do). */
  entries(): readonly PoolView[] {
    return this.#records.entries();
  }

  /** The name (or id) of the first pool whose configuration `names` matches, if any. */
  namingConfig(names: (config: BrowserPoolConfig) => boolean): string | undefined {
    return this.#records.namingConfig(names);
  }

  list(): BrowserPool[] {
    return this.#records.list();
  }

  /** One page of the pools, oldest first, by `name` or `query`. */
  page(query: NamedListQuery): Page<BrowserPool> {
    return this.#records.page(query);
  }

  get(idOrName: string): BrowserPool {
    return this.#records.get(idOrName);
  }

  /** Changes the fields given; idle browsers made with the old configuration are replaced. */
  update(idOrName: string, body: UpdateBrowserPoolInput, origin: string): Promise<BrowserPool> {
    return this.#records.update(idOrName, body, origin);
  }

  /** Deletes a pool and its browsers; 409 while browsers are acquired, unless `force`. */
  delete(idOrName: string, force: boolean): Promise<void> {
    return this.#records.delete(idOrName, force);
  }

  /** A browser of the pool, waiting up to `timeoutSeconds`; undefined when none came free. */
  acquire(
    idOrName: string,
    timeoutSeconds: number,
    signal: AbortSignal,
    receivedBy?: string,
  ): Promise<BrowserSession | undefined> {
    return this.#leases.acquire(idOrName, timeoutSeconds, signal, receivedBy);
  }

  /** An acquire another node of the cluster (`node`) received, of a pool held here. */
  acquireFor(
    node: string,
    idOrName: string,
    timeoutSeconds: number,
    signal: AbortSignal,
    gone?: string,
  ): Promise<string | BrowserSession | undefined> {
    return this.#leases.acquireFor(node, idOrName, timeoutSeconds, signal, gone);
  }

  /** Starts a browser here for a pool another node of a cluster holds, warm. */
  startForPool(poolId: string, origin: string, lend: boolean): Promise<BrowserSession> {
    return this.#cluster.startForPool(poolId, origin, lend);
  }

  /** Starts a browser here for a pool another node of a cluster holds, warm, from its spec. */
  startFor(spec: BrowserSpec, origin: string, lend: boolean): Promise<BrowserSession> {
    return this.#cluster.startFor(spec, origin, lend);
  }

  /** Hands out a warm pool browser that runs here; undefined when it is warm no more. */
  handOutHere(entry: BrowserEntry<I>): BrowserSession | undefined {
    return this.#cluster.handOutHere(entry);
  }

  /** A browser of pool `poolId` held here, lent to its node, was handed out there. */
  takenThere(poolId: string, sessionId: string): void {
    this.#cluster.takenThere(poolId, sessionId);
  }

  /** Takes an acquired browser back, and its session ends; with `reuse` one starts at once. */
  release(idOrName: string, sessionId: string, reuse: boolean): Promise<void> {
    return this.#leases.release(idOrName, sessionId, reuse);
  }

  /** Replaces every idle browser with a fresh one. */
  flush(idOrName: string): Promise<void> {
    return this.#records.flush(idOrName);
  }

  /** A browser ended: its pool lets it go, and every pool left short fills again. */
  forget(record: BrowserSession, isFromElsewhere = false): void {
    this.#endings.forget(record, isFromElsewhere);
  }

  /** Whether pool `poolId` here holds browser `sessionId`; undefined when it is not held here. */
  holds(poolId: string, sessionId: string): boolean | undefined {
    return this.#held.holds(poolId, sessionId);
  }

  /** Whether pool `poolId` here has browser `sessionId` handed out. */
  hasAcquired(poolId: string, sessionId: string): boolean {
    return this.#held.hasAcquired(poolId, sessionId);
  }

  /** A cluster lost nodes: the pools here let go of the browsers they held there. */
  forgetLost(isOf: (sessionId: string) => boolean): void {
    this.#endings.forgetLost(isOf);
  }

  /** Takes the stored pools this node holds and has not yet, and fills them. */
  restore(origin: string): Promise<void> {
    return this.#records.restore(origin);
  }

  /** Adds a pool record as given (the fake's seeds), filled to its size. */
  seed(record: BrowserPool, origin: string): void {
    this.#records.seed(record, origin);
  }

  /**
   * Housekeeping: every pool left short that its fill rate now lets start a browser starts it
   * (a timer does this too; a sweep also follows a clock that is not the real one).
   */
  sweep(): void {
    for (const pool of this.#held.values()) this.#filler.fillIfDue(pool);
  }

  /** Stops filling and sends every waiting acquire away empty (shutdown). */
  close(): void {
    for (const pool of this.#held.values()) this.#filler.stop(pool);
  }
}
