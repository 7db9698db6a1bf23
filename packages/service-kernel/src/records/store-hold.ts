/**
 * One transaction at a time over a store with no locks of its own (memory; SQLite's one
 * connection): a transaction holds the store while it runs, and every other call waits for it.
 * The check that the store is free and the start of the work are one synchronous step, so
 * nothing starts between them.
 */
export class StoreHold {
  #held: Promise<unknown> | undefined;

  /** Whether a transaction holds the store now. */
  get isHeld(): boolean {
    return this.#held !== undefined;
  }

  /** Runs `work` once no transaction holds the store. */
  async after<T>(work: () => T): Promise<Awaited<T>> {
    // The transaction's own caller hears how it failed; this one only waits for it to end.
    while (this.#held) await this.#held.catch(() => undefined);
    return await work();
  }

  /** Runs a transaction once none holds the store, holding it until the transaction ends. */
  async alone<R>(transaction: () => Promise<R>): Promise<R> {
    // The transaction's own caller hears how it failed; this one only waits for it to end.
    while (this.#held) await this.#held.catch(() => undefined);
    const running = transaction();
    this.#held = running;
    try {
      return await running;
    } finally {
      if (this.#held === running) this.#held = undefined;
    }
  }
}
