import type { BrowserSession } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { refusals } from '../messages.js';
import { ServiceError } from '../service-error.js';
import { type PoolEntry, RELEASED_KEPT } from './pool-entry.js';
import type { PoolParts } from './pool-parts.js';
import { waitInLine } from './wait-in-line.js';

/** What a hand-out says of a browser its node, which it was lent to, had handed out itself. */
const TAKEN_THERE = Symbol('taken there');

/**
 * Acquiring a pool's browsers, in arrival order with a time-out, here or through the cluster's
 * node that holds the pool, and releasing them: the lease's session ends with the release.
 */
export class PoolLeases<I extends BrowserInstance> {
  readonly #parts: PoolParts<I>;

  constructor(parts: PoolParts<I>) {
    this.#parts = parts;
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
    const peers = this.#parts.context.settings.poolPeers;
    const pool = this.#parts.held.lookup(idOrName);
    if (!pool && peers) {
      const lent = this.#parts.cluster.takeLent(peers, idOrName);
      if (lent) return lent;
      const asked = () =>
        this.#parts.cluster.acquireThroughHolder(peers, idOrName, timeoutSeconds, signal);
      return asked().catch((error: unknown) => {
        // A name remembered for a pool renamed or deleted since: the store says where it is now.
        const isStale =
          error instanceof ServiceError &&
          error.code === 'not_found' &&
          this.#parts.cluster.forgetName(idOrName);
        if (!isStale) throw error;
        return asked();
      });
    }
    const held = pool ?? this.#parts.held.find(idOrName);
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
    const pool = this.#parts.held.find(idOrName);
    const peers = this.#parts.context.settings.poolPeers;
    if (gone !== undefined && peers?.nodeOf(gone) === node && pool.acquired.delete(gone))
      this.#parts.filler.fill(pool);
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
      this.#parts.filler.hold(pool, taken);
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
      this.#parts.filler.fill(pool);
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
    const peers = this.#parts.context.settings.poolPeers;
    const local = this.#parts.browsers.peek(sessionId);
    if (local || !peers) {
      const entry = this.#parts.browsers.live(sessionId);
      this.#parts.browsers.setWarm(entry, false);
      return this.#parts.browsers.record(entry);
    }
    // Not live here: on another node, unless it is one of this node's that ended meanwhile.
    if (peers.nodeOf(sessionId) === peers.self) return undefined;
    try {
      return (await peers.lease(this.#parts.context.project, sessionId)) ?? TAKEN_THERE;
    } catch (error) {
      this.#parts.context.log.warn(
        { err: error, pool: pool.id, session: sessionId },
        'a warm browser of the pool on another node could not be handed out',
      );
      return undefined;
    }
  }

  /** The first warm browser, one on node `receivedBy` (else this one) first, taken off the list. */
  #takeIdle(pool: PoolEntry, receivedBy: string | undefined): string | undefined {
    const peers = this.#parts.context.settings.poolPeers;
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
    const pool = this.#parts.held.find(idOrName);
    if (pool.idle.includes(sessionId) && (await this.#parts.cluster.wasTakenThere(sessionId)))
      this.#parts.cluster.takenThere(pool.id, sessionId);
    if (!pool.acquired.has(sessionId)) {
      if (pool.idle.includes(sessionId)) throw refusals.notAcquired(sessionId);
      if (pool.released.has(sessionId)) throw refusals.leaseEnded(sessionId);
      const record = await this.#parts.context.engines.records.browsers.get(sessionId);
      if (record?.deleted_at && record.pool?.id === pool.id) throw refusals.leaseEnded(sessionId);
      throw refusals.notInPool(idOrName, sessionId);
    }
    pool.acquired.delete(sessionId);
    pool.released.add(sessionId);
    for (const oldest of pool.released) {
      if (pool.released.size <= RELEASED_KEPT) break;
      pool.released.delete(oldest);
    }
    const entry = this.#parts.browsers.peek(sessionId);
    // The lease is over once its session is; its browser's clean-up goes on beside the
    // replacement's start (both count among the node's browsers).
    if (entry) await this.#parts.browsers.endSoon(entry, { reason: 'released' });
    else await this.#parts.cluster.endElsewhere(sessionId, 'released');
    await this.#parts.filler.fillAfterCall(pool, reuse ? 1 : 0);
  }
}
