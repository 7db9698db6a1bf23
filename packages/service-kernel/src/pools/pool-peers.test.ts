import type { BrowserSession } from '@x/types';
import { describe, expect, it, vi } from 'vitest';
import { nodeTagOf } from '../ids.js';
import type { PoolPeers } from '../model-context.js';
import type { ServiceModel } from '../service-model.js';
import {
  BROWSER,
  memoryEngines,
  type RecordingInstance,
  testModel,
} from '../test-support/memory-engines.js';

const ORIGIN = 'http://localhost:1';

/**
 * Two nodes of a cluster on one store, each a model, their pools' calls between them made in
 * process: what a pool does when its browsers run on both.
 */
function twoNodes(options: { async?: boolean } = {}) {
  const engines = memoryEngines(options);
  const models = new Map<string, ServiceModel<RecordingInstance>>();
  const up = new Set(['AAAA', 'BBBB']);
  /** Nodes draining: up, but no browser is placed on them. */
  const draining = new Set<string>();
  const open = () => [...up].filter((node) => !draining.has(node));
  /** Whether a node tells the holder of a pool when a browser ends (false: the call was lost). */
  const tells = { value: true };
  /** The browsers a holder had their node hand out (a call back to that node). */
  const leasedThere: string[] = [];
  /** The calls made of a pool's holder to acquire through it. */
  const asked: string[] = [];
  /** Whether news that a lent browser was handed out waits in `notices` (still on its way). */
  const heldNotices = { value: false };
  const notices: (() => void)[] = [];
  /** Whether each start lent its browser to its node. */
  const lends: boolean[] = [];
  const modelOf = (id: string) => {
    const model = models.get(nodeTagOf(id) ?? '');
    if (!model || !up.has(nodeTagOf(id) ?? '')) throw new Error(`node of ${id} is not up`);
    return model;
  };
  const peersOf = (self: string): PoolPeers => ({
    self,
    where: (share) => open().sort((a, b) => share(a) - share(b))[0],
    hasRoom: () => open().length > 0,
    nodeOf: (id) => nodeTagOf(id) ?? self,
    start: async (node, _project, spec, origin, lend) => {
      lends.push(lend);
      const model = models.get(node) as ServiceModel<RecordingInstance>;
      return model.pools.startFor(spec, origin, lend);
    },
    lease: async (_project, id) => {
      leasedThere.push(id);
      const model = modelOf(id);
      const entry = model.browsers.peek(id);
      if (!entry) throw new Error(`${id} does not run`);
      return model.pools.handOutHere(entry);
    },
    end: async (_project, id, reason, ifWarm) => {
      const model = modelOf(id);
      const entry = model.browsers.peek(id);
      if (entry && ifWarm && !entry.isWarm) return false;
      if (entry) await model.browsers.endSoon(entry, { reason });
      return true;
    },
    ended: (_project, record: BrowserSession) => {
      if (tells.value) modelOf(record.pool?.id as string).pools.forget(record, true);
    },
    taken: (_project, poolId, id) => {
      const deliver = () => modelOf(poolId).pools.takenThere(poolId, id);
      if (heldNotices.value) notices.push(deliver);
      else deliver();
    },
    warmth: async (_project, id) => modelOf(id).browsers.peek(id)?.isWarm,
    acquire: async (holder, _project, idOrName, timeoutSeconds, signal, gone) => {
      if (!up.has(holder)) throw new Error(`node ${holder} is not up`);
      asked.push(self);
      const model = models.get(holder) as ServiceModel<RecordingInstance>;
      const taken = await model.pools.acquireFor(self, idOrName, timeoutSeconds, signal, gone);
      // A call between nodes fails when its signal aborts, as a closed connection does.
      signal.throwIfAborted();
      return taken;
    },
  });
  for (const tag of up) {
    const { model } = testModel({
      engines,
      node: { tag, owns: (id) => (nodeTagOf(id) ?? tag) === tag, poolPeers: peersOf(tag) },
    });
    models.set(tag, model);
  }
  const a = models.get('AAAA') as ServiceModel<RecordingInstance>;
  const b = models.get('BBBB') as ServiceModel<RecordingInstance>;
  const warmOn = (model: ServiceModel<RecordingInstance>) =>
    model.browsers.entries().filter((entry) => entry.isWarm).length;
  return {
    a,
    b,
    up,
    draining,
    tells,
    warmOn,
    leasedThere,
    asked,
    heldNotices,
    notices,
    lends,
    engines,
  };
}

const never = new AbortController().signal;

describe('a pool whose browsers run on two nodes', () => {
  it('starts each browser on the node with fewest of its browsers, and hands out the asking node’s first', async () => {
    const { a, b, warmOn } = twoNodes();
    const pool = await a.pools.create({ size: 4 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(4);
    expect([warmOn(a), warmOn(b)]).toEqual([2, 2]);
    const onB = await a.pools.acquire(pool.id, 0, never, 'BBBB');
    expect(nodeTagOf(onB?.session_id as string)).toBe('BBBB');
    expect(b.browsers.peek(onB?.session_id as string)?.isWarm).toBe(false);
    const onA = await a.pools.acquire(pool.id, 0, never);
    expect(nodeTagOf(onA?.session_id as string)).toBe('AAAA');
    // Released through the holder: the browser on the other node ends there.
    await a.pools.release(pool.id, onB?.session_id as string, false);
    expect(b.browsers.peek(onB?.session_id as string)).toBeUndefined();
    a.close();
    b.close();
  });

  it('drains a node: its warm browsers end, its pools fill and hand out on the other node', async () => {
    const { a, b, draining, warmOn } = twoNodes();
    const held = await a.pools.create({ size: 2 }, ORIGIN);
    const elsewhere = await b.pools.create({ size: 2 }, ORIGIN);
    await expect.poll(() => a.pools.get(held.id).available_count).toBe(2);
    await expect.poll(() => b.pools.get(elsewhere.id).available_count).toBe(2);
    expect([warmOn(a), warmOn(b)]).toEqual([2, 2]);
    const inUse = await a.pools.acquire(held.id, 0, never);
    expect(nodeTagOf(inUse?.session_id as string)).toBe('AAAA');
    draining.add('AAAA');
    a.drain();
    // Both pools, the one A holds too, start their browsers on B; A's leased one runs on.
    await expect.poll(() => [warmOn(a), warmOn(b)]).toEqual([0, 3]);
    await expect.poll(() => b.pools.get(elsewhere.id).available_count).toBe(2);
    expect(a.pools.get(held.id)).toMatchObject({ available_count: 1, acquired_count: 1 });
    expect(a.browsers.peek(inUse?.session_id as string)).toBeDefined();
    const next = await a.pools.acquire(held.id, 0, never);
    expect(nodeTagOf(next?.session_id as string)).toBe('BBBB');
    expect(() => a.browsers.create(BROWSER, ORIGIN)).toThrow(/draining/);
    a.close();
    b.close();
  });

  it('ends, and refuses to the holder, a browser a draining node finished starting for a pool', async () => {
    const { a, b, draining, warmOn } = twoNodes({ async: true });
    const starting = b.pools.startFor(BROWSER, ORIGIN, true);
    draining.add('BBBB');
    b.drain();
    await expect(starting).rejects.toMatchObject({ code: 'unavailable' });
    expect(warmOn(b)).toBe(0);
    a.close();
    b.close();
  });

  it('passes over a browser that ended on its node unheard, and fills again', async () => {
    const { a, b, tells } = twoNodes();
    const pool = await a.pools.create({ size: 2 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(2);
    const [there] = b.browsers.entries();
    tells.value = false;
    await b.browsers.delete(there?.record.session_id as string);
    // Asked through B first: its browser is gone, the one on A is handed out.
    const leased = await a.pools.acquire(pool.id, 0, never, 'BBBB');
    expect(nodeTagOf(leased?.session_id as string)).toBe('AAAA');
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(1);
    a.close();
    b.close();
  });

  it('lets go of the browsers of a node lost, and starts them again on the nodes up', async () => {
    const { a, b, up, warmOn } = twoNodes();
    const pool = await a.pools.create({ size: 2 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(2);
    up.delete('BBBB');
    a.pools.forgetLost((id) => nodeTagOf(id) === 'BBBB');
    await expect.poll(() => warmOn(a)).toBe(2);
    expect(a.pools.get(pool.id).available_count).toBe(2);
    a.close();
    b.close();
  });

  it('is acquired through any node: one lent to the node asked is handed out there, with no call', async () => {
    const { a, b, leasedThere, asked } = twoNodes();
    const pool = await a.pools.create({ name: 'shared', size: 2 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(2);
    // B holds no pool: asked by name, it hands out the browser of it the holder lent it.
    const here = await b.pools.acquire('shared', 0, never);
    expect(nodeTagOf(here?.session_id as string)).toBe('BBBB');
    expect(b.browsers.peek(here?.session_id as string)?.isWarm).toBe(false);
    expect([asked, leasedThere]).toEqual([[], []]);
    // The holder heard of it after: it counts it acquired.
    expect(a.pools.get(pool.id)).toMatchObject({ available_count: 1, acquired_count: 1 });
    // None warm on B now: the store names the pool; the holder hands out its own.
    const there = await b.pools.acquire('shared', 0, never);
    expect(nodeTagOf(there?.session_id as string)).toBe('AAAA');
    expect(a.browsers.peek(there?.session_id as string)?.isWarm).toBe(false);
    // None left: B's caller waits in the holder's line, and a release serves it.
    const waiting = b.pools.acquire(pool.id, 30, never);
    await expect.poll(() => a.pools.get(pool.id).acquired_count).toBe(2);
    await a.pools.release(pool.id, here?.session_id as string, true);
    const served = await waiting;
    expect(served?.session_id).toBeDefined();
    expect([here?.session_id, there?.session_id]).not.toContain(served?.session_id);
    await expect(b.pools.acquire('no-such-pool', 0, never)).rejects.toMatchObject({
      code: 'not_found',
    });
    a.close();
    b.close();
  });

  it('lets go of a browser of the node asked that ended there unheard, and fills again', async () => {
    const { a, b, tells } = twoNodes();
    const pool = await a.pools.create({ name: 'shared', size: 2 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(2);
    const [there] = b.browsers.entries();
    tells.value = false;
    await b.browsers.delete(there?.record.session_id as string);
    // Asked through B: the holder hands back B's (gone), then A's; B's is let go, and replaced.
    const leased = await b.pools.acquire(pool.id, 0, never);
    expect(nodeTagOf(leased?.session_id as string)).toBe('AAAA');
    expect(a.pools.get(pool.id).acquired_count).toBe(1);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(1);
    a.close();
    b.close();
  });

  it('hands a lent browser out once, whichever node asks first; the holder counts it acquired', async () => {
    const { a, b, leasedThere, heldNotices, notices } = twoNodes();
    const pool = await a.pools.create({ size: 2 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(2);
    heldNotices.value = true;
    const here = await b.pools.acquire(pool.id, 0, never);
    const hereId = here?.session_id as string;
    expect(nodeTagOf(hereId)).toBe('BBBB');
    // The holder has not heard yet: it asks B for B's browser first, hears it is taken, and
    // hands out A's. B's stays acquired.
    const next = await a.pools.acquire(pool.id, 0, never, 'BBBB');
    expect(leasedThere).toEqual([hereId]);
    expect(nodeTagOf(next?.session_id as string)).toBe('AAAA');
    expect(a.pools.get(pool.id)).toMatchObject({ available_count: 0, acquired_count: 2 });
    expect(await a.pools.acquire(pool.id, 0, never, 'BBBB')).toBeUndefined();
    // The late news changes nothing.
    for (const deliver of notices.splice(0)) deliver();
    expect(a.pools.get(pool.id)).toMatchObject({ available_count: 0, acquired_count: 2 });
    await a.pools.release(pool.id, hereId, false);
    expect(b.browsers.peek(hereId)).toBeUndefined();
    a.close();
    b.close();
  });

  it('releases, and keeps through a flush, a lent browser handed out before the holder heard', async () => {
    const { a, b, heldNotices } = twoNodes();
    const pool = await a.pools.create({ size: 2 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(2);
    heldNotices.value = true;
    const first = (await b.pools.acquire(pool.id, 0, never))?.session_id as string;
    // Its release reaches the holder before the news: the holder asks B, and ends it.
    await a.pools.release(pool.id, first, false);
    expect(b.browsers.peek(first)).toBeUndefined();
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(2);
    const second = (await b.pools.acquire(pool.id, 0, never))?.session_id as string;
    expect(nodeTagOf(second)).toBe('BBBB');
    // A flush replaces the idle browsers, not the one B handed out: its lease goes on.
    await a.pools.flush(pool.id);
    expect(b.browsers.peek(second)?.isWarm).toBe(false);
    expect(a.pools.get(pool.id).acquired_count).toBe(1);
    await a.pools.release(pool.id, second, false);
    expect(b.browsers.peek(second)).toBeUndefined();
    a.close();
    b.close();
  });

  it('lends no browser started while an acquire waits: the line is served first', async () => {
    const { a, b, lends } = twoNodes();
    const pool = await a.pools.create({ size: 2 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(2);
    // The holder's own browser is started without a call; B's was lent to B.
    expect(lends).toEqual([true]);
    const onB = (await b.pools.acquire(pool.id, 0, never))?.session_id as string;
    await a.pools.acquire(pool.id, 0, never);
    const waiting = a.pools.acquire(pool.id, 30, never);
    await a.pools.release(pool.id, onB, true);
    const served = await waiting;
    expect(nodeTagOf(served?.session_id as string)).toBe('BBBB');
    expect(lends).toEqual([true, false]);
    a.close();
    b.close();
  });

  it('finds the holder of a pool by a name it read once, and reads the store again when the name moved', async () => {
    const { a, b, engines } = twoNodes();
    const pool = await a.pools.create({ name: 'shared', size: 1 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(1);
    // None warm on B (none lent): the holder is found by the name, read from the store once.
    const byName = vi.spyOn(engines.engines.records.pools, 'byName');
    const first = await b.pools.acquire('shared', 0, never);
    expect(nodeTagOf(first?.session_id as string)).toBe('AAAA');
    expect(await b.pools.acquire('shared', 0, never)).toBeUndefined();
    expect(await b.pools.acquire('shared', 0, never)).toBeUndefined();
    expect(byName).toHaveBeenCalledTimes(1);
    // Renamed: the holder knows no 'shared', and the store, read again, none either.
    await a.pools.update(pool.id, { name: 'renamed' }, ORIGIN);
    await expect(b.pools.acquire('shared', 0, never)).rejects.toMatchObject({ code: 'not_found' });
    expect(byName).toHaveBeenCalledTimes(2);
    a.close();
    b.close();
  });

  it('answers nothing, and raises nothing, to a caller that gave up waiting through another node', async () => {
    const { a, b } = twoNodes();
    const pool = await a.pools.create({ size: 1 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(1);
    await b.pools.acquire(pool.id, 0, never);
    const gaveUp = new AbortController();
    const waiting = b.pools.acquire(pool.id, 30, gaveUp.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    gaveUp.abort();
    expect(await waiting).toBeUndefined();
    a.close();
    b.close();
  });

  it('puts back a browser taken for a node that gave up before it was handed out', async () => {
    const { a, b } = twoNodes();
    const pool = await a.pools.create({ size: 2 }, ORIGIN);
    await expect.poll(() => a.pools.get(pool.id).available_count).toBe(2);
    const gaveUp = new AbortController();
    gaveUp.abort();
    expect(await a.pools.acquireFor('BBBB', pool.id, 0, gaveUp.signal)).toBeUndefined();
    expect(a.pools.get(pool.id)).toMatchObject({ available_count: 2, acquired_count: 0 });
    expect(b.browsers.entries().filter((entry) => entry.isWarm)).toHaveLength(1);
    a.close();
    b.close();
  });
});
