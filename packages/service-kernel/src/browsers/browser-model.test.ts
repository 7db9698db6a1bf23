import { SESSION_URL_LIFETIME_SECONDS } from '@x/types';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../service-error.js';
import { BROWSER, testModel } from '../test-support/memory-engines.js';

const ORIGIN = 'http://localhost:1';

const jwtExpiry = (url: string) => {
  const payload = new URL(url).searchParams.get('jwt')?.split('.')[1] ?? '';
  return (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp: number }).exp;
};

describe('creating browsers', () => {
  it('refuses one past capacity with 429 and Retry-After, after the checks that are 404', async () => {
    const { model } = testModel({ maxBrowsers: 1 });
    await model.browsers.create(BROWSER, ORIGIN);
    const refused = (() => {
      try {
        model.browsers.create(BROWSER, ORIGIN);
      } catch (error) {
        return error as ServiceError;
      }
    })();
    expect(refused?.status).toBe(429);
    expect(refused?.headers['retry-after']).toBe('5');
    await expect(
      (async () => model.browsers.create({ ...BROWSER, invocation_id: 'inv_x' }, ORIGIN))(),
    ).rejects.toThrow(/No invocation "inv_x"/);
  });

  it('counts browsers still starting against capacity', async () => {
    const { model } = testModel({ maxBrowsers: 1, async: true });
    const starting = model.browsers.create(BROWSER, ORIGIN);
    expect(() => model.browsers.create(BROWSER, ORIGIN)).toThrow(ServiceError);
    await starting;
  });

  it('hands out URLs valid for their lifetime, signed again past half of it', async () => {
    const { model, advance } = testModel();
    const entry = await model.browsers.create({ ...BROWSER, timeout_seconds: 10 }, ORIGIN);
    const first = model.browsers.record(entry).cdp_ws_url;
    expect(first.startsWith('ws://localhost:1/browsers/')).toBe(true);
    advance((SESSION_URL_LIFETIME_SECONDS / 2) * 1000 - 60_000);
    entry.lastActivityAt = Date.now();
    expect(model.browsers.record(entry).cdp_ws_url).toBe(first);
    advance(120_000);
    const renewed = model.browsers.record(entry).cdp_ws_url;
    expect(jwtExpiry(renewed) - jwtExpiry(first)).toBeGreaterThan(0);
  });
});

describe('ending a browser', () => {
  it('takes its processes, watches and recordings with it; the record keeps deleted_at', async () => {
    const test = testModel();
    const entry = await test.model.browsers.create(BROWSER, ORIGIN);
    const id = entry.record.session_id;
    test.model.processes.spawn(id, { command: 'sleep', args: ['9'], env: {} });
    const { watch_id } = await test.model.watches.start(id, '/home/browser', false);
    const watch = test.model.watches.find(id, watch_id);
    const replay = await test.model.replays.start(id, 10, undefined);
    await test.model.browsers.delete(id);
    expect(test.processes[0]?.signals).toEqual(['KILL']);
    expect(watch.events.isClosed).toBe(true);
    expect(test.finished).toEqual([replay.replay_id]);
    expect(test.instances.get(id)?.isClosed).toBe(true);
    expect((await test.model.browsers.get(id)).deleted_at).toBeDefined();
    expect((await test.model.replays.list(id))[0]?.finished_at).toBeDefined();
    expect(() => test.model.browsers.live(id)).toThrow(/No browser session/);
  });

  it('ends a browser idle past its time-out, not one a pool keeps warm', async () => {
    const { model, advance } = testModel();
    const idle = await model.browsers.create({ ...BROWSER, timeout_seconds: 10 }, ORIGIN);
    await model.pools.create({ size: 1, timeout_seconds: 10 }, ORIGIN);
    advance(11_000);
    model.sweep();
    await Promise.resolve();
    expect((await model.browsers.get(idle.record.session_id)).deleted_at).toBeDefined();
    expect(model.pools.list()[0]?.available_count).toBe(1);
  });

  it('ends the session when its browser crashes, and its pool starts another', async () => {
    const test = testModel();
    await test.model.pools.create({ size: 1 }, ORIGIN);
    const [warm] = test.model.browsers.entries();
    test.instances.get(warm?.record.session_id ?? '')?.crash();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await test.model.browsers.get(warm?.record.session_id ?? '')).deleted_at).toBeDefined();
    expect(test.model.pools.list()[0]?.available_count).toBe(1);
  });
});
