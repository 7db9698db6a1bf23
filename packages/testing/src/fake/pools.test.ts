import type { BrowserPool, BrowserSession } from '@x/types';
import { describe, expect, it } from 'vitest';
import { apiOf, manualClock } from '../test-support/api.js';
import { fakeService } from '../test-support/fakes.js';

async function createPool(
  fake: ReturnType<typeof fakeService>,
  body: Record<string, unknown>,
): Promise<BrowserPool> {
  const answer = await apiOf(fake).call('POST', '/browser_pools', { json: body });
  expect(answer.status).toBe(201);
  return answer.json as BrowserPool;
}

describe('pools', () => {
  it('hand each browser to one caller under concurrent acquire, with true counts throughout', async () => {
    const fake = fakeService();
    await fake.listen();
    const api = apiOf(fake, { overHttp: true });
    const pool = await createPool(fake, { name: 'busy', size: 3 });
    expect(pool).toMatchObject({ available_count: 3, acquired_count: 0 });
    const acquire = () =>
      api.call('POST', '/browser_pools/busy/acquire', { json: { acquire_timeout_seconds: 5 } });
    const first = await Promise.all(Array.from({ length: 3 }, acquire));
    const ids = first.map((answer) => (answer.json as BrowserSession).session_id);
    expect(new Set(ids).size).toBe(3);
    expect((await api.call('GET', '/browser_pools/busy')).json).toMatchObject({
      available_count: 0,
      acquired_count: 3,
    });

    // Three more wait; each release ends a lease, and its replacement goes to exactly one of them.
    const waiting = Array.from({ length: 3 }, acquire);
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const id of ids) {
      expect(
        (await api.call('POST', '/browser_pools/busy/release', { json: { session_id: id } }))
          .status,
      ).toBe(204);
    }
    const second = await Promise.all(waiting);
    expect(second.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const secondIds = second.map((answer) => (answer.json as BrowserSession).session_id);
    expect(new Set(secondIds).size).toBe(3);
    expect(secondIds.some((id) => ids.includes(id))).toBe(false);
    expect((await api.call('GET', '/browser_pools/busy')).json).toMatchObject({
      available_count: 0,
      acquired_count: 3,
    });
  });

  it('answer 204 when no browser comes free within acquire_timeout_seconds', async () => {
    const fake = fakeService();
    await createPool(fake, { name: 'one', size: 1 });
    const api = apiOf(fake);
    await api.call('POST', '/browser_pools/one/acquire', { json: {} });
    const started = performance.now();
    const answer = await api.call('POST', '/browser_pools/one/acquire', {
      json: { acquire_timeout_seconds: 1 },
    });
    expect(answer.status).toBe(204);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('replace a browser released without reuse, and the idle ones on flush', async () => {
    const fake = fakeService();
    await createPool(fake, { name: 'fresh', size: 2 });
    const api = apiOf(fake);
    const acquired = (await api.call('POST', '/browser_pools/fresh/acquire', { json: {} }))
      .json as BrowserSession;
    await api.call('POST', '/browser_pools/fresh/release', {
      json: { session_id: acquired.session_id, reuse: false },
    });
    expect(fake.state.browsers.get(acquired.session_id)?.session.deleted_at).toBeDefined();
    const pool = [...fake.state.pools.values()][0];
    expect(pool?.idle).toHaveLength(2);
    const idleBefore = [...(pool?.idle ?? [])];
    await api.call('POST', '/browser_pools/fresh/flush');
    expect(pool?.idle).toHaveLength(2);
    expect(pool?.idle.some((id) => idleBefore.includes(id))).toBe(false);
  });

  it('end the session of a released lease: the next lease is a new session with a new jwt', async () => {
    const fake = fakeService();
    await createPool(fake, { name: 'reuse', size: 1 });
    const api = apiOf(fake);
    const first = (await api.call('POST', '/browser_pools/reuse/acquire', { json: {} }))
      .json as BrowserSession;
    await api.call('POST', `/browsers/${first.session_id}/computer/type`, {
      json: { text: 'secret' },
    });
    await api.call('POST', '/browser_pools/reuse/release', {
      json: { session_id: first.session_id, reuse: true },
    });
    expect((await api.call('GET', `/browsers/${first.session_id}`)).json).toMatchObject({
      deleted_at: expect.any(String),
    });
    const second = (await api.call('POST', '/browser_pools/reuse/acquire', { json: {} }))
      .json as BrowserSession;
    expect(second.session_id).not.toBe(first.session_id);
    const jwtOf = (url: string) => new URL(url).searchParams.get('jwt');
    expect(jwtOf(second.cdp_ws_url)).not.toBe(jwtOf(first.cdp_ws_url));
    expect(fake.typedText(second.session_id)).toBe('');
  });

  it('delete with force ends the acquired browsers too', async () => {
    const fake = fakeService();
    await createPool(fake, { name: 'gone', size: 2 });
    const api = apiOf(fake);
    const { session_id: id } = (await api.call('POST', '/browser_pools/gone/acquire', { json: {} }))
      .json as BrowserSession;
    expect((await api.call('DELETE', '/browser_pools/gone?force=true')).status).toBe(204);
    expect(fake.state.browsers.get(id)?.session.deleted_at).toBeDefined();
    expect((await api.call('GET', '/browsers')).json).toEqual([]);
  });
});

describe('pools with fillRate', () => {
  it("fill at fill_rate_per_minute of the fake's clock, as the server's do", async () => {
    const time = manualClock();
    const fake = fakeService({ clock: time.clock, fillRate: true });
    const pool = await createPool(fake, { name: 'slow', size: 20, fill_rate_per_minute: 10 });
    expect(pool.available_count).toBe(2);
    time.advance(29_000);
    expect((await apiOf(fake).call('GET', '/browser_pools/slow')).json).toMatchObject({
      available_count: 2,
    });
    time.advance(1_000);
    expect((await apiOf(fake).call('GET', '/browser_pools/slow')).json).toMatchObject({
      available_count: 3,
    });
    time.advance(10 * 60_000);
    expect((await apiOf(fake).call('GET', '/browser_pools/slow')).json).toMatchObject({
      available_count: 5,
    });
  });
});
