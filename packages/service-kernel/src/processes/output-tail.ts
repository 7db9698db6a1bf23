import type { ProcessOutputEvent } from '@x/types';

/** One chunk of output, and where it starts in everything the process wrote (bytes). */
interface Chunk {
  readonly stream: 'stdout' | 'stderr';
  readonly offset: number;
  readonly bytes: Uint8Array;
}

/** Where a reader stands: the bytes of output it has been given or told it lost. */
export interface TailPosition {
  offset: number;
  isDone: boolean;
}

/**
 * A process's output, bounded: the newest `capacity` bytes of it (whole chunks; a chunk larger
 * than the capacity keeps its end), then its exit. Older output is dropped, and a reader that
 * falls behind what is kept is told how many bytes it lost, in their place, as the watches'
 * OVERFLOW does. Memory stays at about `capacity` bytes however much the process writes.
 */
export class OutputTail {
  readonly #capacity: number;
  /** Kept chunks from `#head` on, offsets rising; dropped ones before it are compacted away. */
  #chunks: (Chunk | undefined)[] = [];
  #head = 0;
  /** Bytes written in all, kept or not. */
  #written = 0;
  #kept = 0;
  #exitCode: number | undefined;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Bytes dropped so far. */
  get droppedBytes(): number {
    return this.#written - this.#kept;
  }

  get exitCode(): number | undefined {
    return this.#exitCode;
  }

  /** Adds output; the oldest chunks go while more than the capacity is held. */
  write(stream: 'stdout' | 'stderr', bytes: Uint8Array): void {
    if (this.#exitCode !== undefined || bytes.byteLength === 0) return;
    const kept = bytes.byteLength > this.#capacity ? bytes.slice(-this.#capacity) : bytes;
    const offset = this.#written + (bytes.byteLength - kept.byteLength);
    this.#written += bytes.byteLength;
    this.#chunks.push({ stream, offset, bytes: Uint8Array.from(kept) });
    this.#kept += kept.byteLength;
    while (this.#kept > this.#capacity) {
      const oldest = this.#chunks[this.#head] as Chunk;
      // The slot is let go at once: a dropped chunk's bytes must not wait for the compaction.
      this.#chunks[this.#head++] = undefined;
      this.#kept -= oldest.bytes.byteLength;
    }
    if (this.#head > 64 && this.#head * 2 > this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The process ended: no more output comes. */
  end(exitCode: number): void {
    if (this.#exitCode === undefined) this.#exitCode = exitCode;
  }

  /** A reader at the start of the output. */
  start(): TailPosition {
    return { offset: 0, isDone: false };
  }

  /**
   * The next event for a reader at `position`, moving it on: an overflow for what it lost, a
   * chunk, or the exit; undefined when it has everything so far.
   */
  next(position: TailPosition): ProcessOutputEvent | undefined {
    if (position.isDone) return undefined;
    const chunk = this.#firstFrom(position.offset);
    const keptFrom = chunk?.offset ?? this.#written;
    if (keptFrom > position.offset) {
      const lost = keptFrom - position.offset;
      position.offset = keptFrom;
      return { type: 'overflow', lost_bytes: lost };
    }
    if (chunk) {
      position.offset = chunk.offset + chunk.bytes.byteLength;
      return { type: chunk.stream, data_b64: Buffer.from(chunk.bytes).toString('base64') };
    }
    if (this.#exitCode === undefined) return undefined;
    position.isDone = true;
    return { type: 'exit', exit_code: this.#exitCode };
  }

  /** What is kept of one stream, in order. */
  kept(stream: 'stdout' | 'stderr'): Buffer {
    const chunks = this.#chunks.slice(this.#head) as Chunk[];
    return Buffer.concat(
      chunks.filter((chunk) => chunk.stream === stream).map((chunk) => chunk.bytes),
    );
  }

  /** The first kept chunk that starts at or after `offset` (a binary search). */
  #firstFrom(offset: number): Chunk | undefined {
    let low = this.#head;
    let high = this.#chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#chunks[middle] as Chunk).offset < offset) low = middle + 1;
      else high = middle;
    }
    return this.#chunks[low];
  }
}
