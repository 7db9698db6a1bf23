import { wakeOrAbort } from '../event-stream.js';

/** One record's events (with what each costs in memory) and who waits for the next. */
interface Follow<E> {
  readonly events: E[];
  readonly sizes: number[];
  bytes: number;
  readonly waiters: Set<() => void>;
  isEnded: boolean;
}

/** What an event costs in memory, near enough: its JSON, two bytes a character. */
function sizeOf(event: unknown): number {
  return JSON.stringify(event).length * 2;
}

/**
 * The events of records that run on this node (deployments, invocations), kept in memory for
 * their streams: each record's bounded (`maxEvents`, and `maxBytes` of them, its oldest log
 * lines dropped first), and ended records' kept for late readers up to `maxEnded` of them and
 * `maxEndedBytes` together, the oldest forgotten first. A record forgotten (deleted) keeps none.
 */
export class EventLog<E extends { readonly event: string }> {
  readonly #follows = new Map<string, Follow<E>>();
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #maxEnded: number;
  readonly #maxEndedBytes: number;
  readonly #isFinal: (event: E) => boolean;

  constructor(options: {
    readonly maxEvents: number;
    readonly maxBytes: number;
    readonly maxEnded: number;
    readonly maxEndedBytes: number;
    /** Whether an event is the record's last (a final state). */
    readonly isFinal: (event: E) => boolean;
  }) {
    this.#maxEvents = options.maxEvents;
    this.#maxBytes = options.maxBytes;
    this.#maxEnded = options.maxEnded;
    this.#maxEndedBytes = options.maxEndedBytes;
    this.#isFinal = options.isFinal;
  }

  /** Starts keeping a record's events. */
  open(id: string): void {
    this.#follows.set(id, {
      events: [],
      sizes: [],
      bytes: 0,
      waiters: new Set(),
      isEnded: false,
    });
  }

  /** Stops keeping a record's events (it was deleted): a late reader gets its state alone. */
  forget(id: string): void {
    const follow = this.#follows.get(id);
    if (!follow) return;
    this.#follows.delete(id);
    for (const wake of follow.waiters) wake();
    follow.waiters.clear();
  }

  /** Bytes of events kept, every record's together. */
  get bytes(): number {
    let bytes = 0;
    for (const follow of this.#follows.values()) bytes += follow.bytes;
    return bytes;
  }

  /** Whether this node keeps the record's events. */
  has(id: string): boolean {
    return this.#follows.has(id);
  }

  /** Adds an event of a record this node keeps (none is kept for another). */
  emit(id: string, event: E): void {
    const follow = this.#follows.get(id);
    if (!follow || follow.isEnded) return;
    const size = sizeOf(event);
    follow.events.push(event);
    follow.sizes.push(size);
    follow.bytes += size;
    while (follow.events.length > this.#maxEvents || follow.bytes > this.#maxBytes) {
      // The oldest log line goes first; the states stay (they are few), the newest event too.
      const oldestLog = follow.events.findIndex((each) => each.event === 'log');
      const dropped = oldestLog === -1 ? 0 : oldestLog;
      if (dropped === follow.events.length - 1) break;
      follow.events.splice(dropped, 1);
      follow.bytes -= follow.sizes.splice(dropped, 1)[0] ?? 0;
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
    let count = ended.length;
    let bytes = ended.reduce((sum, [, follow]) => sum + follow.bytes, 0);
    for (const [id, follow] of ended) {
      if (count <= this.#maxEnded && bytes <= this.#maxEndedBytes) break;
      this.#follows.delete(id);
      count--;
      bytes -= follow.bytes;
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
      // Forgotten (deleted): what it had is read, nothing more comes.
      if (this.#follows.get(id) !== follow) return;
      await wakeOrAbort((wake) => follow.waiters.add(wake), signal);
    }
  }
}
