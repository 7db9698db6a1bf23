import { describe, expect, it } from 'vitest';
import { OutputTail, type TailPosition } from './output-tail.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const decode = (base64: string) => Buffer.from(base64, 'base64').toString();

/** Every event a reader at `position` gets now, data decoded. */
function drain(tail: OutputTail, position: TailPosition) {
  const events: unknown[] = [];
  for (let event = tail.next(position); event; event = tail.next(position)) {
    events.push('data_b64' in event ? { type: event.type, text: decode(event.data_b64) } : event);
  }
  return events;
}

describe('OutputTail', () => {
  it('gives a reader everything in order, then the exit', () => {
    const tail = new OutputTail(100);
    const reader = tail.start();
    tail.write('stdout', bytes('one '));
    tail.write('stderr', bytes('two'));
    expect(drain(tail, reader)).toEqual([
      { type: 'stdout', text: 'one ' },
      { type: 'stderr', text: 'two' },
    ]);
    tail.end(3);
    expect(drain(tail, reader)).toEqual([{ type: 'exit', exit_code: 3 }]);
    expect(tail.next(reader)).toBeUndefined();
  });

  it('keeps only the newest bytes and tells a late reader how many it lost', () => {
    const tail = new OutputTail(10);
    for (const word of ['aaaa', 'bbbb', 'cccc', 'dddd']) tail.write('stdout', bytes(word));
    tail.end(0);
    expect(tail.droppedBytes).toBe(6);
    expect(drain(tail, tail.start())).toEqual([
      { type: 'overflow', lost_bytes: 6 },
      { type: 'stdout', text: 'bbccccdddd' },
      { type: 'exit', exit_code: 0 },
    ]);
  });

  it('tells a reader that fell behind what it missed, then carries on', () => {
    const tail = new OutputTail(8);
    const reader = tail.start();
    tail.write('stdout', bytes('1111'));
    expect(drain(tail, reader)).toEqual([{ type: 'stdout', text: '1111' }]);
    for (const word of ['2222', '3333', '4444']) tail.write('stdout', bytes(word));
    expect(drain(tail, reader)).toEqual([
      { type: 'overflow', lost_bytes: 4 },
      { type: 'stdout', text: '33334444' },
    ]);
  });

  it('keeps the end of one chunk larger than the whole tail', () => {
    const tail = new OutputTail(4);
    tail.write('stdout', bytes('0123456789'));
    expect(drain(tail, tail.start())).toEqual([
      { type: 'overflow', lost_bytes: 6 },
      { type: 'stdout', text: '6789' },
    ]);
    expect(tail.kept('stdout').toString()).toBe('6789');
  });

  it('holds about its capacity however much is written, in tiny chunks too', () => {
    const tail = new OutputTail(1024);
    for (let index = 0; index < 200_000; index++) tail.write('stdout', bytes('x'));
    expect(tail.kept('stdout').byteLength).toBe(1024);
    expect(tail.droppedBytes).toBe(200_000 - 1024);
    const reader = tail.start();
    expect(tail.next(reader)).toEqual({ type: 'overflow', lost_bytes: 200_000 - 1024 });
  });

  it('ignores output after the exit', () => {
    const tail = new OutputTail(10);
    tail.end(1);
    tail.write('stdout', bytes('late'));
    expect(drain(tail, tail.start())).toEqual([{ type: 'exit', exit_code: 1 }]);
  });

  it('keeps exactly the newest bytes of each stream through every wrap of its ring', () => {
    // Writes of random sizes and streams, checked against the plain concatenation.
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const capacity = 5_000;
    const tail = new OutputTail(capacity);
    const all: { stream: 'stdout' | 'stderr'; byte: number }[] = [];
    const buffer = new Uint8Array(9_000);
    for (let write = 0; write < 2_000; write++) {
      const stream = random(3) === 0 ? 'stderr' : 'stdout';
      const size = 1 + random(write % 100 === 0 ? 8_000 : 300);
      for (let index = 0; index < size; index++) {
        buffer[index] = random(256);
        all.push({ stream, byte: buffer[index] as number });
      }
      // The writer reuses its buffer at once, as the server's reader does.
      tail.write(stream, buffer.subarray(0, size));
      buffer.fill(0);
    }
    const newest = all.slice(-capacity);
    for (const stream of ['stdout', 'stderr'] as const) {
      const expected = newest.filter((entry) => entry.stream === stream).map((entry) => entry.byte);
      expect([...tail.kept(stream)]).toEqual(expected);
    }
    expect(tail.droppedBytes).toBe(all.length - capacity);
  });

  it('reads a long run in pieces of at most 64 KiB, and merges a stream written in bits', () => {
    const tail = new OutputTail(256 * 1024);
    tail.write('stdout', new Uint8Array(100 * 1024).fill(65));
    const reader = tail.start();
    const sizes = [];
    for (let event = tail.next(reader); event; event = tail.next(reader)) {
      if ('data_b64' in event) sizes.push(Buffer.from(event.data_b64, 'base64').byteLength);
    }
    expect(sizes).toEqual([64 * 1024, 36 * 1024]);
    for (const bit of ['a', 'b', 'c']) tail.write('stderr', bytes(bit));
    expect(drain(tail, reader)).toEqual([{ type: 'stderr', text: 'abc' }]);
  });

  it('keeps a bounded number of runs when the streams alternate byte by byte', () => {
    const tail = new OutputTail(64 * 1024);
    for (let index = 0; index < 20_000; index++) {
      tail.write(index % 2 === 0 ? 'stdout' : 'stderr', bytes('x'));
    }
    // 4,096 runs of one byte each are kept; the rest were let go as if overwritten.
    expect(tail.kept('stdout').byteLength + tail.kept('stderr').byteLength).toBe(4_096);
    expect(tail.droppedBytes).toBe(20_000 - 4_096);
  });
});
