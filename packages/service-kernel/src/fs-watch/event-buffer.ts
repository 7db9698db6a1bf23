import { wakeOrAbort } from '../event-stream.js';

/**
 * Events waiting for a reader, at most `capacity` of them. An event that finds the buffer full is
 * counted as lost; the count goes out as one overflow event in the place of the lost ones (or at
 * the end), so nothing is dropped silently. A watch's events are kept this way.
 */
export class EventBuffer<T> {
  readonly #capacity: number;
  readonly #overflow: (lost: number) => T;
  readonly #queue: T[] = [];
  #lost = 0;
  #isClosed = false;
  #wake: (() => void) | undefined;
  #reader: symbol | undefined;

  constructor(capacity: number, overflow: (lost: number) => T) {
    this.#capacity = capacity;
    this.#overflow = overflow;
  }

  /** Events not read yet, in order. */
  get pending(): readonly T[] {
    return this.#queue;
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** Adds an event, or counts it as lost when the buffer is full. */
  push(event: T): void {
    if (this.#isClosed) return;
    const needed = this.#lost > 0 ? 2 : 1;
    if (this.#queue.length + needed > this.#capacity) {
      this.#lost++;
      return;
    }
    if (this.#lost > 0) {
      this.#queue.push(this.#overflow(this.#lost));
      this.#lost = 0;
    }
    this.#queue.push(event);
    this.#wake?.();
  }

  /** Ends the buffer: its reader's loop ends, and what was not read is dropped. */
  close(): void {
    this.#isClosed = true;
    this.#queue.length = 0;
    this.#wake?.();
  }

  /**
   * The events as they come, until the buffer closes or `signal` aborts. The newest reader takes
   * the buffer over; an older one ends.
   */
  async *read(signal: AbortSignal): AsyncGenerator<T, void> {
    const reader = Symbol('reader');
    this.#reader = reader;
    const isCurrent = () => this.#reader === reader;
    try {
      while (!this.#isClosed && isCurrent() && !signal.aborted) {
        const event = this.#queue.shift();
        if (event !== undefined) {
          yield event;
          continue;
        }
        if (this.#lost > 0) {
          const lost = this.#lost;
          this.#lost = 0;
          yield this.#overflow(lost);
          continue;
        }
        await wakeOrAbort((wake) => {
          this.#wake = wake;
        }, signal);
      }
    } finally {
      if (isCurrent()) this.#wake = undefined;
    }
  }
}
