import type { BrowserSession } from '@x/types';
import type { BrowserEntry } from '../browsers/browser-entry.js';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserSpec } from '../browsers/browser-spec.js';
import type { BrowserInstance } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext, PoolPeers } from '../model-context.js';
import { findByIdOrName } from '../records/named-records.js';
import type { HeldPools } from './held-pools.js';
import { browserSpecOf, type PoolEntry } from './pool-entry.js';

/** How many names of pools other nodes hold a node remembers (`PoolCluster.#namesElsewhere`). */
const NAMES_KEPT = 1000;

/**
 * What pools take from a cluster's other nodes: acquires of pools another node holds, browsers
 * started here for them (and lent to this node), and the pool browsers other nodes run, asked
 * after or ended through their nodes.
 */
export class PoolCluster<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;
  readonly #held: HeldPools<I>;
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

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>, held: HeldPools<I>) {
    this.#context = context;
    this.#browsers = browsers;
    this.#held = held;
  }

  /**
   * Acquires through the cluster's node that holds the pool (found from a warm browser of it
   * here, else the store). A browser of this node it hands back by id is handed out here; one
   * that ended here meanwhile is passed over, and the holder asked again, told it is gone; one
   * handed out here meanwhile is passed over too.
   */
  async acquireThroughHolder(
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

  /** Forgets where a name was last read to be held; says whether it was remembered. */
  forgetName(idOrName: string): boolean {
    return this.#namesElsewhere.delete(idOrName);
  }

  /**
   * The oldest warm browser of pool `idOrName` (held elsewhere) lent to this node, handed out
   * here; the pool's node is told after. Undefined when none is.
   */
  takeLent(peers: PoolPeers, idOrName: string): BrowserSession | undefined {
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

  /** A browser lent to this node ended: it is lent no more. */
  forgetLent(sessionId: string): void {
    this.#lent.delete(sessionId);
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
    const pool = this.#held.get(poolId);
    const index = pool?.idle.indexOf(sessionId) ?? -1;
    if (!pool || index === -1) return;
    pool.idle.splice(index, 1);
    pool.acquired.add(sessionId);
  }

  /**
   * Whether a warm browser of a pool held here, which runs on another node, was handed out by
   * that node (it was lent to it) before the news reached this one.
   */
  async wasTakenThere(sessionId: string): Promise<boolean> {
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

  /**
   * Ends a pool browser another node of a cluster runs (`ifWarm`: only while it is warm); false
   * when it was handed out there instead.
   */
  async endElsewhere(
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

  /** The browsers pools moved here had on every node, warm or acquired, found from the store. */
  async takeBrowsers(pools: readonly PoolEntry[]): Promise<void> {
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
}
