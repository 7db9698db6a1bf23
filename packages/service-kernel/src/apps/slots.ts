/** A call waiting for a place, and whose it is. */
interface Waiter {
  readonly owner: string;
  readonly wake: () => void;
}

/**
 * A number of places work takes in turn, shared fairly between owners (projects): `take` waits
 * until a place is free (or `signal` aborts: it then rejects with the signal's reason); a freed
 * place goes to the owner that holds the fewest places among those waiting, the longest waiting
 * first among equals, so an owner with many calls in line never keeps another's out for more
 * than one turn. The function `take` gives frees the place, once.
 */
export class Slots {
  readonly #size: number;
  #taken = 0;
  readonly #held = new Map<string, number>();
  readonly #waiting: Waiter[] = [];

  constructor(size: number) {
    this.#size = size;
  }

  /** Places taken and calls waiting for one. */
  get load(): { readonly taken: number; readonly waiting: number } {
    return { taken: this.#taken, waiting: this.#waiting.length };
  }

  async take(signal?: AbortSignal, owner = ''): Promise<() => void> {
    if (this.#taken >= this.#size) {
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          owner,
          wake: () => {
            signal?.removeEventListener('abort', abort);
            resolve();
          },
        };
        const abort = () => {
          const index = this.#waiting.indexOf(waiter);
          if (index !== -1) this.#waiting.splice(index, 1);
          reject(signal?.reason);
        };
        if (signal?.aborted) return abort();
        signal?.addEventListener('abort', abort, { once: true });
        this.#waiting.push(waiter);
      });
    } else {
      this.#taken += 1;
    }
    this.#held.set(owner, (this.#held.get(owner) ?? 0) + 1);
    let isFree = false;
    return () => {
      if (isFree) return;
      isFree = true;
      const held = (this.#held.get(owner) ?? 1) - 1;
      if (held === 0) this.#held.delete(owner);
      else this.#held.set(owner, held);
      const next = this.#next();
      // The place passes to the next in line as it is, or is given back.
      if (next) next.wake();
      else this.#taken -= 1;
    };
  }

  /** The waiter whose owner holds the fewest places (the longest waiting among equals). */
  #next(): Waiter | undefined {
    let best = -1;
    let fewest = Number.POSITIVE_INFINITY;
    for (const [index, waiter] of this.#waiting.entries()) {
      const held = this.#held.get(waiter.owner) ?? 0;
      if (held < fewest) {
        fewest = held;
        best = index;
      }
    }
    return best === -1 ? undefined : this.#waiting.splice(best, 1)[0];
  }
}
