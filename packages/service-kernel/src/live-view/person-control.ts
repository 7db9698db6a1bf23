/**
 * Who drives a session now: its agent (the computer controls, DevTools clients) or a person who
 * took control in the live view. While a person holds it, the agent's input waits; it goes on,
 * in the order it came, once the person lets go.
 */
export class PersonControl {
  /** The viewer holding control, or undefined while the agent drives. */
  #holder: object | undefined;
  readonly #waiters = new Set<() => void>();
  /** The agent's input running now (an action the computer controls started), if any. */
  running: Promise<unknown> | undefined;
  /** The person's input, one after another, while they hold control. */
  personInput: Promise<void> = Promise.resolve();

  get holder(): object | undefined {
    return this.#holder;
  }

  /** Waits while a person holds control; at once when nobody does or `signal` aborts. */
  whenFree(signal: AbortSignal): Promise<void> {
    if (!this.#holder || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.#waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** How many of the agent's calls wait for the person now. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /**
   * `holder` takes control: the agent's next input waits. The person's own input starts once the
   * agent's action running now (if any) has ended, so the two never interleave mid-action.
   */
  take(holder: object): void {
    this.#holder = holder;
    this.personInput = (this.running ?? Promise.resolve()).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Control goes back to the agent: what waited goes on, in the order it came. */
  release(): void {
    this.#holder = undefined;
    for (const waiter of [...this.#waiters]) waiter();
  }
}
