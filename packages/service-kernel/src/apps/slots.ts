/**
 * A number of places work takes in turn: `take` waits, first come first served, until one is
 * free (or `signal` aborts: it then rejects with the signal's reason); the function it gives
 * frees the place, once.
 */
export class Slots {
  readonly #size: number;
  #taken = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#size = size;
  }

  /** Places taken and calls waiting for one. */
  get load(): { readonly taken: number; readonly waiting: number } {
    return { taken: this.#taken, waiting: this.#waiting.length };
  }

  async take(signal?: AbortSignal): Promise<() => void> {
    if (this.#taken >= this.#size) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          const index = this.#waiting.indexOf(wake);
          if (index !== -1) this.#waiting.splice(index, 1);
          reject(signal?.reason);
        };
        if (signal?.aborted) return abort();
        signal?.addEventListener('abort', abort, { once: true });
        this.#waiting.push(wake);
      });
    } else {
      this.#taken += 1;
    }
    let isFree = false;
    return () => {
      if (isFree) return;
      isFree = true;
      const next = this.#waiting.shift();
      // The place passes to the next in line as it is, or is given back.
      if (next) next();
      else this.#taken -= 1;
    };
  }
}
