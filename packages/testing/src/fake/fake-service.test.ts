import type { BrowserPool, BrowserSession } from '@x/types';
import { describe, expect, it } from 'vitest';
import {
  buildBrowserPool,
  buildBrowserSession,
  buildExtension,
  buildInvocation,
} from '../fixtures/records.js';
import { apiOf, manualClock } from '../test-support/api.js';
import { fakeService, newBrowser } from '../test-support/fakes.js';
import { createFakeService } from './fake-service.js';

describe('running the fake', () => {
  it('answers in-process through its fetch, with no socket', async () => {
    const fake = fakeService();
    expect(fake.url).toBe('http://fake.local');
    const answer = await apiOf(fake).call('GET', '/browsers');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([]);
  });

  it('listens on an ephemeral loopback port and stops listening on close', async () => {
    const fake = createFakeService();
    const url = await fake.listen();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(fake.url).toBe(url);
    const session = await newBrowser(fake);
    expect(session.cdp_ws_url.startsWith(`ws://127.0.0.1:${new URL(url).port}/`)).toBe(true);
    await fake.close();
    await expect(fetch(`${url}/healthz`)).rejects.toThrow(TypeError);
  });

  it('takes its tokens from the options', async () => {
    const fake = fakeService({ token: ['a', 'b'], readOnlyToken: 'r' });
    const api = apiOf(fake);
    expect((await api.call('POST', '/browsers', { token: 'b', json: {} })).status).toBe(201);
    expect((await api.call('GET', '/browsers', { token: 'r' })).status).toBe(200);
    expect((await api.call('POST', '/browsers', { token: 'r', json: {} })).status).toBe(403);
    expect((await api.call('GET', '/browsers', { token: 'test-token' })).status).toBe(401);
  });

  it('keeps sessions to the private networks its options open, as the server does', async () => {
    const fake = fakeService({ allowNetworks: ['127.0.0.1/32', '10.1.0.0/16'] });
    const api = apiOf(fake);
    const plain = await api.call('POST', '/browsers', { json: {} });
    expect(plain.json).toMatchObject({ network: { allow: ['127.0.0.1/32', '10.1.0.0/16'] } });
    const narrowed = await api.call('POST', '/browsers', {
      json: { network: { allow: ['10.1.2.0/24'] } },
    });
    expect(narrowed.json).toMatchObject({ network: { allow: ['10.1.2.0/24'] } });
    const outside = await api.call('POST', '/browsers', {
      json: { network: { allow: ['192.168.0.0/16'] } },
    });
    expect(outside.status).toBe(400);
    expect(outside.json).toMatchObject({ code: 'bad_request' });
    expect(JSON.stringify(outside.json)).toContain('network.allow[0]');
    // By default, as the server without XB_ALLOW_NETWORKS: no private destination at all.
    const closedFake = apiOf(fakeService());
    const closed = await closedFake.call('POST', '/browsers', { json: {} });
    expect(closed.json).toMatchObject({ network: { allow: [] } });
    const refused = await closedFake.call('POST', '/browsers', {
      json: { network: { allow: ['10.1.2.0/24'] } },
    });
    expect(refused.status).toBe(400);
    const open = await apiOf(fakeService({ allowNetworks: '*' })).call('POST', '/browsers', {
      json: {},
    });
    expect(open.json).not.toHaveProperty('network');
    expect(() => fakeService({ allowNetworks: '10.0.0.0/33' })).toThrow(/10\.0\.0\.0\/33/);
  });

  it('answers 429 with Retry-After beyond its browser capacity', async () => {
    const fake = fakeService({ maxBrowsers: 1 });
    await newBrowser(fake);
    const answer = await apiOf(fake).call('POST', '/browsers', { json: {} });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.json).toMatchObject({ code: 'rate_limited' });
  });
});

describe('state, seed and reset', () => {
  it('serves seeded records and exposes them in state', async () => {
    const fake = fakeService();
    const session = buildBrowserSession();
    const pool = buildBrowserPool({
      name: 'checkout',
      acquired_count: 1,
      browser_pool_config: { size: 3 },
    });
    const extension = buildExtension({ name: 'adblock' });
    const invocation = buildInvocation();
    fake.seed({
      browsers: [session],
      pools: [pool],
      extensions: [extension],
      invocations: [invocation],
    });
    const api = apiOf(fake);
    expect((await api.call('GET', `/browsers/${session.session_id}`)).json).toMatchObject({
      session_id: session.session_id,
    });
    const seededPool = (await api.call('GET', '/browser_pools/checkout')).json as BrowserPool;
    expect(seededPool).toMatchObject({ id: pool.id, acquired_count: 1, available_count: 2 });
    expect((await api.call('GET', '/extensions/adblock')).status).toBe(200);
    expect((await api.call('GET', `/invocations/${invocation.id}`)).json).toEqual(invocation);
    expect(fake.state.pools.get(pool.id)?.acquired.size).toBe(1);
    expect(fake.state.extensions.get(extension.id)?.record.size_bytes).toBe(
      fake.state.extensions.get(extension.id)?.archive.byteLength,
    );
  });

  it('refuses a seed record that breaks its schema, naming the field', () => {
    const fake = fakeService();
    expect(() => fake.seed({ pools: [{ id: 'p' } as BrowserPool] })).toThrow(
      /pools\[0\]\.available_count/,
    );
  });

  it('empties state, journal and faults on reset', async () => {
    const fake = fakeService();
    await newBrowser(fake);
    fake.inject({ type: 'drop' }, { operation: 'browsers.get' });
    fake.reset();
    expect(fake.state.browsers.size).toBe(0);
    expect(fake.journal.entries).toEqual([]);
    expect((await apiOf(fake).call('GET', '/browsers/br_x')).status).toBe(404);
  });

  it('gives the same ids from the same seed', async () => {
    const ids = [];
    for (let run = 0; run < 2; run++)
      ids.push((await newBrowser(fakeService({ seed: 7 }))).session_id);
    expect(ids[0]).toBe(ids[1]);
  });

  it('deletes a browser idle past timeout_seconds', async () => {
    const time = manualClock();
    const fake = fakeService({ clock: time.clock });
    const session = await newBrowser(fake, { timeout_seconds: 10 });
    time.advance(9_000);
    expect(
      (await apiOf(fake).call('GET', `/browsers/${session.session_id}`)).json,
    ).not.toHaveProperty('deleted_at');
    time.advance(10_001);
    const after = (await apiOf(fake).call('GET', `/browsers/${session.session_id}`))
      .json as BrowserSession;
    expect(after.deleted_at).toBeDefined();
  });
});

describe('typing', () => {
  it('records typed text per browser, any Unicode intact', async () => {
    const fake = fakeService();
    const [a, b] = [await newBrowser(fake), await newBrowser(fake)];
    const api = apiOf(fake);
    await api.call('POST', `/browsers/${a?.session_id}/computer/type`, {
      json: { text: 'héllo 世界 👋\n' },
    });
    await api.call('POST', `/browsers/${b?.session_id}/computer/type`, { json: { text: 'other' } });
    await api.call('POST', `/browsers/${a?.session_id}/computer/type`, {
      json: { text: '\tdone' },
    });
    expect(fake.typedText(a?.session_id as string)).toBe('héllo 世界 👋\n\tdone');
    expect(fake.typedText(b?.session_id as string)).toBe('other');
  });

  it('honours delay and types one input at a time', async () => {
    const fake = fakeService();
    const { session_id: id } = await newBrowser(fake);
    const api = apiOf(fake);
    const started = performance.now();
    await Promise.all([
      api.call('POST', `/browsers/${id}/computer/type`, { json: { text: 'abcd', delay: 40 } }),
      api.call('POST', `/browsers/${id}/computer/type`, { json: { text: 'WXYZ', delay: 40 } }),
    ]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(6 * 40 - 5);
    expect(fake.typedText(id)).toBe('abcdWXYZ');
  });
});
