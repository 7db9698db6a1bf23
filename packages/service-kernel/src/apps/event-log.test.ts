import { describe, expect, it } from 'vitest';
import { EventLog } from './event-log.js';

type Event = { event: 'log'; message: string } | { event: 'state'; isFinal: boolean };

const log = (options: { maxBytes?: number; maxEndedBytes?: number; maxEnded?: number } = {}) =>
  new EventLog<Event>({
    maxEvents: 1000,
    maxBytes: options.maxBytes ?? 1024 * 1024,
    maxEnded: options.maxEnded ?? 100,
    maxEndedBytes: options.maxEndedBytes ?? 1024 * 1024,
    isFinal: (event) => event.event === 'state' && event.isFinal,
  });

async function read(events: EventLog<Event>, id: string): Promise<Event[]> {
  const read: Event[] = [];
  const snapshot = (): Event => ({ event: 'state', isFinal: true });
  for await (const event of events.events(id, new AbortController().signal, snapshot))
    read.push(event);
  return read;
}

describe('EventLog', () => {
  it("keeps a record's events within its bytes, its oldest log lines going first", async () => {
    const events = log({ maxBytes: 64 * 1024 });
    events.open('dep_1');
    events.emit('dep_1', { event: 'state', isFinal: false });
    const line = 'x'.repeat(1000);
    for (let i = 0; i < 1000; i++) events.emit('dep_1', { event: 'log', message: `${i} ${line}` });
    events.emit('dep_1', { event: 'state', isFinal: true });
    expect(events.bytes).toBeLessThanOrEqual(64 * 1024);
    const kept = await read(events, 'dep_1');
    expect(kept[0]).toEqual({ event: 'state', isFinal: false });
    expect(kept.at(-1)).toEqual({ event: 'state', isFinal: true });
    expect(kept.at(-2)).toMatchObject({ message: expect.stringMatching(/^999 /) });
    expect(kept.length).toBeLessThan(40);
  });

  it('keeps ended records within their bytes together, and none of a forgotten one', async () => {
    const events = log({ maxEndedBytes: 100 * 1024 });
    const line = 'y'.repeat(10_000);
    for (let n = 0; n < 50; n++) {
      const id = `dep_${n}`;
      events.open(id);
      events.emit(id, { event: 'log', message: line });
      events.emit(id, { event: 'state', isFinal: true });
    }
    expect(events.bytes).toBeLessThanOrEqual(100 * 1024);
    // The oldest went first: a late reader of one gets its state alone.
    expect(events.has('dep_0')).toBe(false);
    expect(events.has('dep_49')).toBe(true);
    events.forget('dep_49');
    expect(events.has('dep_49')).toBe(false);
    expect(await read(events, 'dep_49')).toEqual([{ event: 'state', isFinal: true }]);
  });

  it('ends a reader waiting on a record that is forgotten', async () => {
    const events = log();
    events.open('dep_1');
    events.emit('dep_1', { event: 'log', message: 'one' });
    const reading = read(events, 'dep_1');
    await new Promise((resolve) => setImmediate(resolve));
    events.forget('dep_1');
    expect(await reading).toEqual([{ event: 'log', message: 'one' }]);
  });
});
