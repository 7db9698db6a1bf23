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
    expect(tail.droppedBytes).toBe(8);
    expect(drain(tail, tail.start())).toEqual([
      { type: 'overflow', lost_bytes: 8 },
      { type: 'stdout', text: 'cccc' },
      { type: 'stdout', text: 'dddd' },
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
      { type: 'stdout', text: '3333' },
      { type: 'stdout', text: '4444' },
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
});
