import type { ProcessOutputEvent } from '@x/types';

/** A run of one stream's output: where it starts and ends in everything the process wrote. */
interface Segment {
  readonly stream: 'stdout' | 'stderr';
  start: number;
  end: number;
}

/** Most bytes one event carries: a long run of output is read in pieces of this size. */
const EVENT_BYTES = 64 * 1024;

/**
 * Most runs kept: output that alternates streams byte by byte would otherwise need an object per
 * byte; past it the oldest runs go as if they were overwritten.
 */
const MAX_SEGMENTS = 4096;

/** The ring's first size: a process that writes a line costs a line, not the whole tail. */
const FIRST_RING_BYTES = 4096;

/** Where a reader stands: the bytes of output it has been given or told it lost. */
export interface TailPosition {
  offset: number;
  isDone: boolean;
}

/**
 * A process's output, bounded: the newest `capacity` bytes of it, then its exit. The bytes live in
 * one ring that grows (by doubling) up to the capacity and is then written over, so output costs
 * no allocation per chunk however fast it comes: a flood of it leaves nothing behind for the
 * garbage collector or the allocator to hold. Runs of one stream are kept as segments; adjacent
 * output of the same stream reads as one. Older output is dropped, and a reader that falls behind
 * what is kept is told how many bytes it lost, in their place, as the watches' OVERFLOW does.
 */
export class OutputTail {
  readonly #capacity: number;
  #ring = new Uint8Array(0);
  /** The absolute offset stored at ring index 0 (modulo the ring's size). */
  #origin = 0;
  /** Kept runs from `#head` on, offsets rising. */
  #segments: Segment[] = [];
  #head = 0;
  /** Bytes written in all, kept or not. */
  #written = 0;
  #exitCode: number | undefined;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Where the oldest kept byte is, in everything written. */
  get #keptFrom(): number {
    return this.#segments[this.#head]?.start ?? this.#written;
  }

  /** Bytes dropped so far. */
  get droppedBytes(): number {
    return this.#written - this.#kept;
  }

  get #kept(): number {
    let kept = 0;
    for (let index = this.#head; index < this.#segments.length; index++) {
      const segment = this.#segments[index] as Segment;
      kept += segment.end - segment.start;
    }
    return kept;
  }

  get exitCode(): number | undefined {
    return this.#exitCode;
  }

  /**
   * Adds output (copied: the caller may reuse `bytes` at once); the oldest goes while more than
   * the capacity is held.
   */
  write(stream: 'stdout' | 'stderr', bytes: Uint8Array): void {
    if (this.#exitCode !== undefined || bytes.byteLength === 0) return;
    const kept = bytes.byteLength > this.#capacity ? bytes.subarray(-this.#capacity) : bytes;
    const start = this.#written + (bytes.byteLength - kept.byteLength);
    const end = start + kept.byteLength;
    this.#written += bytes.byteLength;
    this.#drop(end - this.#capacity);
    this.#reserve(start, end);
    this.#copyIn(start, kept);
    const last = this.#segments.at(-1);
    if (last && this.#segments.length > this.#head && last.stream === stream && last.end === start)
      last.end = end;
    else this.#segments.push({ stream, start, end });
    if (this.#segments.length - this.#head > MAX_SEGMENTS)
      this.#drop(this.#segments[this.#head + 1]?.start ?? end);
    if (this.#head > 64 && this.#head * 2 > this.#segments.length) {
      this.#segments = this.#segments.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Drops every kept byte before `offset`. */
  #drop(offset: number): void {
    while (this.#head < this.#segments.length) {
      const oldest = this.#segments[this.#head] as Segment;
      if (oldest.start >= offset) return;
      if (oldest.end > offset) {
        oldest.start = offset;
        return;
      }
      this.#head++;
    }
  }

  /**
   * Makes room in the ring for the kept runs and a write from `start` to `end`: grown by doubling
   * (up to the capacity) with what it holds copied over, when they would not fit.
   */
  #reserve(start: number, end: number): void {
    const isEmpty = this.#head === this.#segments.length;
    const from = isEmpty ? start : this.#keptFrom;
    if (end - from <= this.#ring.byteLength) return;
    let size = Math.max(FIRST_RING_BYTES, this.#ring.byteLength);
    while (size < end - from) size *= 2;
    const grown = new Uint8Array(Math.min(size, this.#capacity));
    if (!isEmpty) grown.set(this.#copyOut(from, (this.#segments.at(-1) as Segment).end));
    this.#ring = grown;
    this.#origin = from;
  }

  /** Copies `bytes` into the ring at absolute `offset`, wrapping at its end. */
  #copyIn(offset: number, bytes: Uint8Array): void {
    const size = this.#ring.byteLength;
    const at = (offset - this.#origin) % size;
    const first = Math.min(bytes.byteLength, size - at);
    this.#ring.set(bytes.subarray(0, first), at);
    if (first < bytes.byteLength) this.#ring.set(bytes.subarray(first), 0);
  }

  /** A copy of the ring's bytes from absolute `from` to `to`. */
  #copyOut(from: number, to: number): Uint8Array {
    const out = new Uint8Array(to - from);
    const size = this.#ring.byteLength;
    if (out.byteLength === 0) return out;
    const at = (from - this.#origin) % size;
    const first = Math.min(out.byteLength, size - at);
    out.set(this.#ring.subarray(at, at + first), 0);
    if (first < out.byteLength) out.set(this.#ring.subarray(0, out.byteLength - first), first);
    return out;
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
   * The next event for a reader at `position`, moving it on: an overflow for what it lost, output
   * (at most 64 KiB of one stream), or the exit; undefined when it has everything so far.
   */
  next(position: TailPosition): ProcessOutputEvent | undefined {
    if (position.isDone) return undefined;
    const keptFrom = this.#keptFrom;
    if (keptFrom > position.offset) {
      const lost = keptFrom - position.offset;
      position.offset = keptFrom;
      return { type: 'overflow', lost_bytes: lost };
    }
    const segment = this.#segmentAt(position.offset);
    if (segment) {
      const from = Math.max(position.offset, segment.start);
      const to = Math.min(segment.end, from + EVENT_BYTES);
      const bytes = this.#copyOut(from, to);
      position.offset = to;
      return { type: segment.stream, data_b64: Buffer.from(bytes.buffer).toString('base64') };
    }
    if (this.#exitCode === undefined) return undefined;
    position.isDone = true;
    return { type: 'exit', exit_code: this.#exitCode };
  }

  /** What is kept of one stream, in order. */
  kept(stream: 'stdout' | 'stderr'): Buffer {
    const runs = this.#segments.slice(this.#head).filter((segment) => segment.stream === stream);
    return Buffer.concat(runs.map((segment) => this.#copyOut(segment.start, segment.end)));
  }

  /** The kept run that holds `offset`, or the first after it (a binary search). */
  #segmentAt(offset: number): Segment | undefined {
    let low = this.#head;
    let high = this.#segments.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#segments[middle] as Segment).end <= offset) low = middle + 1;
      else high = middle;
    }
    return this.#segments[low];
  }
}
