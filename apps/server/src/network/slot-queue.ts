/** A first-in, first-out queue of slot numbers (a ring: taking one costs no copy of the rest). */
export class SlotQueue {
  #items = new Int32Array(16);
  #head = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(slot: number): void {
    if (this.#size === this.#items.length) {
      const grown = new Int32Array(this.#items.length * 2);
      for (let index = 0; index < this.#size; index++)
        grown[index] = this.#items[(this.#head + index) % this.#items.length] as number;
      this.#items = grown;
      this.#head = 0;
    }
    this.#items[(this.#head + this.#size) % this.#items.length] = slot;
    this.#size++;
  }

  shift(): number | undefined {
    if (this.#size === 0) return undefined;
    const slot = this.#items[this.#head] as number;
    this.#head = (this.#head + 1) % this.#items.length;
    this.#size--;
    return slot;
  }
}
