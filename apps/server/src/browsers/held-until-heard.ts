/**
 * What a browser reports before anyone listens (its first log lines, its first telemetry events,
 * written while the session is still being set up): held, the newest `max`, and given to the
 * listener when it comes; from then on each is given as it comes.
 */
export class HeldUntilHeard<T> {
  readonly #max: number;
  readonly #early: T[] = [];
  #listener: ((item: T) => void) | undefined;

  constructor(max: number) {
    this.#max = max;
  }

  /** Hears every item: those held first, then each as it comes. */
  listen(listener: (item: T) => void): void {
    this.#listener = listener;
    for (const item of this.#early.splice(0)) listener(item);
  }

  give(item: T): void {
    if (this.#listener) {
      this.#listener(item);
      return;
    }
    this.#early.push(item);
    if (this.#early.length > this.#max) this.#early.shift();
  }
}
