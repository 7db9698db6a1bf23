import type { BrowserSession } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { PoolEntry } from './pool-entry.js';
import type { PoolParts } from './pool-parts.js';

/**
 * Pool browsers ending: those a pool no longer keeps are ended, here or on another node, and a
 * pool lets go of those that ended, or ran on a lost node, and fills again.
 */
export class PoolEndings<I extends BrowserInstance> {
  readonly #parts: PoolParts<I>;

  constructor(parts: PoolParts<I>) {
    this.#parts = parts;
  }

  /** Ends browsers the pool no longer keeps, here and on the other nodes of a cluster. */
  async discard(ids: readonly string[]): Promise<void> {
    await Promise.all(
      ids.map((id) => {
        const entry = this.#parts.browsers.peek(id);
        return entry
          ? this.#parts.browsers.end(entry, { reason: 'pool_changed' })
          : this.#parts.cluster.endElsewhere(id, 'pool_changed');
      }),
    );
  }

  /**
   * Ends the pool's idle browsers. One a node was lent and handed out itself, unheard here yet,
   * is not idle: it stays, acquired (a pool deleted leaves it to its lease).
   */
  async discardIdle(pool: PoolEntry): Promise<void> {
    await Promise.all(
      pool.idle.splice(0).map(async (id) => {
        const entry = this.#parts.browsers.peek(id);
        if (entry) return this.#parts.browsers.end(entry, { reason: 'pool_changed' });
        if (!(await this.#parts.cluster.endElsewhere(id, 'pool_changed', true)) && !pool.isDeleted)
          pool.acquired.add(id);
      }),
    );
  }

  /**
   * A browser ended (deleted, idle, crashed, released): its pool lets it go, and every pool left
   * short (by it, or earlier by the service being full) fills again. A browser of a pool another
   * node of a cluster holds (started here for it) is that node's to hear of, unless this is that
   * node hearing it (`isFromElsewhere`).
   */
  forget(record: BrowserSession, isFromElsewhere = false): void {
    this.#parts.cluster.forgetLent(record.session_id);
    const owner = record.pool && this.#parts.held.get(record.pool.id);
    if (owner) {
      const index = owner.idle.indexOf(record.session_id);
      if (index !== -1) owner.idle.splice(index, 1);
      owner.acquired.delete(record.session_id);
    } else if (record.pool && !isFromElsewhere) {
      this.#parts.context.settings.poolPeers?.ended(this.#parts.context.project, record);
    }
    for (const pool of this.#parts.held.values())
      if (pool.timer === undefined) this.#parts.filler.fill(pool);
  }

  /**
   * A cluster lost nodes (`isOf` picks their browsers by id): the pools here let go of the
   * browsers they held there, and fill again.
   */
  forgetLost(isOf: (sessionId: string) => boolean): void {
    for (const pool of this.#parts.held.values()) {
      const kept = pool.idle.filter((id) => !isOf(id));
      pool.idle.splice(0, pool.idle.length, ...kept);
      for (const id of [...pool.acquired]) if (isOf(id)) pool.acquired.delete(id);
      this.#parts.filler.fill(pool);
    }
  }
}
