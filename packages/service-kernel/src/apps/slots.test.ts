import { describe, expect, it } from 'vitest';
import { Slots } from './slots.js';

describe('Slots', () => {
  it('gives a freed place to the project holding the fewest, not to the longest line', async () => {
    const slots = new Slots(2);
    const order: string[] = [];
    const take = (owner: string, name: string) =>
      slots.take(undefined, owner).then((free) => {
        order.push(name);
        return free;
      });
    const b1 = await take('b', 'b1');
    const b2 = await take('b', 'b2');
    // Project b queues ten more; then a asks for one.
    const waiting = Array.from({ length: 10 }, (_, i) => take('b', `b${i + 3}`));
    const a1 = take('a', 'a1');
    expect(slots.load).toEqual({ taken: 2, waiting: 11 });
    b1();
    await a1;
    expect(order).toEqual(['b1', 'b2', 'a1']);
    b2();
    await waiting[0];
    expect(order.at(-1)).toBe('b3');
    (await a1)();
    await waiting[1];
    expect(order.at(-1)).toBe('b4');
  });

  it('gives up a wait when its call is abandoned', async () => {
    const slots = new Slots(1);
    const free = await slots.take(undefined, 'a');
    const stop = new AbortController();
    const waiting = slots.take(stop.signal, 'b');
    stop.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(slots.load).toEqual({ taken: 1, waiting: 0 });
    free();
    expect(slots.load).toEqual({ taken: 0, waiting: 0 });
  });
});
