import { wakeOrAbort } from '../event-stream.js';

/** One record's events and who waits for the next. */
interface Follow<E> {
  readonly events: E[];
  readonly waiters: Set<() => void>;
  isEnded: boolean;
}

/**
 * The events of records that run on this node (deployments, invocations), kept in memory for
 * their streams: each record's bounded (`maxEvents`, its oldest log lines dropped first), and
 * at most `maxEnded` ended records' kept for late readers, the oldest forgotten first.
 */
export class EventLog<E extends { readonly event: string }> {
  readonly #follows = new Map<string, Follow<E>>();
  readonly #maxEvents: number;
  readonly #maxEnded: number;
  readonly #isFinal: (event: E) => boolean;

  constructor(options: {
    readonly maxEvents: number;
    readonly maxEnded: number;
    /** Whether an event is the record's last (a final state). */
    readonly isFinal: (event: E) => boolean;
  }) {
    this.#maxEvents = options.maxEvents;
    this.#maxEnded = options.maxEnded;
    this.#isFinal = options.isFinal;
  }

  /** Starts keeping a record's events. */
  open(id: string): void {
    this.#follows.set(id, { events: [], waiters: new Set(), isEnded: false });
  }

  /** Whether this node keeps the record's events. */
  has(id: string): boolean {
    return this.#follows.has(id);
  }

  /** Adds an event of a record this node keeps (none is kept for another). */
  emit(id: string, event: E): void {
    const follow = this.#follows.get(id);
    if (!follow || follow.isEnded) return;
    follow.events.push(event);
    if (follow.events.length > this.#maxEvents) {
      const oldestLog = follow.events.findIndex((each) => each.event === 'log');
      follow.events.splice(oldestLog === -1 ? 0 : oldestLog, 1);
    }
    if (this.#isFinal(event)) {
      follow.isEnded = true;
      this.#forgetOldEnded();
    }
    for (const wake of follow.waiters) wake();
    follow.waiters.clear();
  }

  #forgetOldEnded(): void {
    const ended = [...this.#follows].filter(([, follow]) => follow.isEnded);
    for (const [id] of ended.slice(0, Math.max(0, ended.length - this.#maxEnded))) {
      this.#follows.delete(id);
    }
  }

  /**
   * A record's events so far, then each as it comes, until its final one (or `signal`); a
   * record this node does not keep gives `snapshot()` alone.
   */
  async *events(id: string, signal: AbortSignal, snapshot: () => E): AsyncGenerator<E, void> {
    const follow = this.#follows.get(id);
    if (!follow) {
      yield snapshot();
      return;
    }
    let next = 0;
    while (!signal.aborted) {
      // Events dropped from the front while this reader waited shift what it has read.
      next = Math.min(next, follow.events.length);
      while (next < follow.events.length) {
        const event = follow.events[next++] as E;
        yield event;
        if (this.#isFinal(event)) return;
      }
      await wakeOrAbort((wake) => follow.waiters.add(wake), signal);
    }
  }
}
