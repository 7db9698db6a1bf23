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

  it('keeps a browser while a DevTools or BiDi client stays connected, however quiet', async () => {
    const { model, advance } = testModel();
    const held = await model.browsers.create({ ...BROWSER, timeout_seconds: 10 }, ORIGIN);
    const id = held.record.session_id;
    const leaveFirst = model.browsers.connect(id);
    const leaveSecond = model.browsers.connect(id);
    advance(90_000);
    model.sweep();
    await Promise.resolve();
    expect(model.browsers.peek(id)).toBe(held);
    leaveFirst();
    leaveFirst(); // said twice: counted once
    advance(90_000);
    model.sweep();
    await Promise.resolve();
    expect(model.browsers.peek(id)).toBe(held);
    // The time-out counts from when the last client left.
    leaveSecond();
    advance(9_000);
    model.sweep();
    await Promise.resolve();
    expect(model.browsers.peek(id)).toBe(held);
    advance(2_000);
    model.sweep();
    await Promise.resolve();
    expect((await model.browsers.get(id)).deleted_at).toBeDefined();
    expect(model.browsers.connect('br_gone')()).toBeUndefined();
  });

  it('waits at shutdown for a deleted browser still saving its profile, until its instance closed', async () => {
    const { model, instances } = testModel();
    await model.profiles.create('slow');
    const entry = await model.browsers.create(
      { ...BROWSER, profile: { name: 'slow', save_changes: true } },
      ORIGIN,
    );
    const instance = instances.get(entry.record.session_id);
    let letSave = () => undefined as void;
    if (instance)
      instance.saveGate = new Promise<void>((resolve) => {
        letSave = resolve;
      });
    const deleting = model.browsers.delete(entry.record.session_id);
    await new Promise((resolve) => setTimeout(resolve, 0));
    let isClosed = false;
    const closing = model.close().then(() => {
      isClosed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Still saving: the shutdown waits for it (before, it went on, and the instance was left).
    expect(isClosed).toBe(false);
    expect(instance?.isClosed).toBe(false);
    letSave();
    await Promise.all([deleting, closing]);
    expect(instance?.isClosed).toBe(true);
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

describe('names, tags and changes to a running browser', () => {
  const update = {
    name: undefined,
    tags: undefined,
    viewport: undefined,
    timeout_seconds: undefined,
  };

  it('finds a running browser by name; a name is unique among running browsers only', async () => {
    const { model } = testModel({ async: true });
    const starting = model.browsers.create({ ...BROWSER, name: 'agent' }, ORIGIN);
    // Held while it starts: a second browser of that name is refused at once.
    expect(() => model.browsers.create({ ...BROWSER, name: 'agent' }, ORIGIN)).toThrow(
      /A running browser named "agent" exists/,
    );
    const entry = await starting;
    const id = entry.record.session_id;
    expect((await model.browsers.get('agent')).session_id).toBe(id);
    await model.browsers.delete('agent');
    // Ended, it is found by id only, and its name is free again.
    await expect(model.browsers.get('agent')).rejects.toThrow(/No browser session "agent"/);
    expect((await model.browsers.get(id)).name).toBe('agent');
    const next = await model.browsers.create({ ...BROWSER, name: 'agent' }, ORIGIN);
    expect((await model.browsers.get('agent')).session_id).toBe(next.record.session_id);
  });

  it('renames, clears, replaces tags and the time-out; a taken name changes nothing', async () => {
    const { model } = testModel();
    const first = await model.browsers.create({ ...BROWSER, tags: { a: '1', b: '2' } }, ORIGIN);
    const other = await model.browsers.create({ ...BROWSER, name: 'taken' }, ORIGIN);
    const id = first.record.session_id;
    const renamed = await model.browsers.update(id, {
      ...update,
      name: 'shop',
      tags: { c: '3' },
      timeout_seconds: 600,
    });
    expect(renamed).toMatchObject({ name: 'shop', tags: { c: '3' }, timeout_seconds: 600 });
    const refused = await model.browsers
      .update('shop', { ...update, name: 'taken', tags: {} })
      .catch((error: ServiceError) => error);
    expect(refused).toMatchObject({ status: 409, headers: { 'x-should-retry': 'false' } });
    expect((await model.browsers.get(id)).tags).toEqual({ c: '3' });
    // null leaves a field as it is; "" clears the name, {} the tags.
    expect(
      await model.browsers.update('shop', { ...update, name: null, tags: null }),
    ).toMatchObject({ name: 'shop', tags: { c: '3' } });
    const cleared = await model.browsers.update('shop', { ...update, name: '', tags: {} });
    expect(cleared.name).toBeUndefined();
    expect(cleared.tags).toBeUndefined();
    // The old name is free: the other browser takes it.
    await model.browsers.update(other.record.session_id, { ...update, name: 'shop' });
    expect((await model.browsers.get('shop')).session_id).toBe(other.record.session_id);
  });

  it('resizes the running browser; while recorded only with force, recording on in a new replay', async () => {
    const { model } = testModel();
    const entry = await model.browsers.create(BROWSER, ORIGIN);
    const id = entry.record.session_id;
    const instance = entry.instance;
    const resized = await model.browsers.update(id, {
      ...update,
      viewport: { width: 800, height: 600, force: false },
    });
    expect(resized.viewport).toEqual({ width: 800, height: 600 });
    expect(instance.viewports).toEqual([{ width: 800, height: 600 }]);
    const replay = await model.replays.start(id, 10, 60);
    await expect(
      model.browsers.update(id, { ...update, viewport: { width: 640, height: 480, force: false } }),
    ).rejects.toThrow(/is being recorded \(replay "rp_/);
    expect(instance.viewports).toHaveLength(1);
    await model.browsers.update(id, {
      ...update,
      viewport: { width: 640, height: 480, force: true },
    });
    expect(instance.viewports.at(-1)).toEqual({ width: 640, height: 480 });
    const replays = await model.replays.list(id);
    expect(replays).toHaveLength(2);
    expect(replays[0]).toMatchObject({ replay_id: replay.replay_id });
    expect(replays[0]?.finished_at).toBeDefined();
    expect(replays[1]?.finished_at).toBeUndefined();
  });

  it('switches the proxy of new connections; an unknown proxy is 404 and changes nothing', async () => {
    const { model } = testModel();
    const proxy = await model.proxies.create({
      type: 'custom',
      config: { host: 'proxy.test', port: 3128 },
    } as never);
    const entry = await model.browsers.create(BROWSER, ORIGIN);
    const id = entry.record.session_id;
    const switched = await model.browsers.update(id, { ...update, proxy_id: proxy.id });
    expect(switched.proxy_id).toBe(proxy.id);
    expect(entry.instance.proxies.at(-1)).toMatchObject({ host: 'proxy.test', port: 3128 });
    await expect(
      model.browsers.update(id, { ...update, proxy_id: 'px_none', tags: { a: 'b' } }),
    ).rejects.toThrow(/No proxy "px_none"/);
    expect((await model.browsers.get(id)).tags).toBeUndefined();
    const direct = await model.browsers.update(id, { ...update, proxy_id: '' });
    expect(direct.proxy_id).toBeUndefined();
    expect(entry.instance.proxies).toHaveLength(2);
    expect(entry.instance.proxies.at(-1)).toBeUndefined();
  });

  it('a browser that finishes starting after its invocation ended ends too (409)', async () => {
    const { model } = testModel({ async: true });
    const invocation = {
      id: 'inv_2',
      app_name: 'shop',
      action_name: 'buy',
      version: 'latest',
      status: 'running' as const,
      started_at: '2026-11-22T10:00:00.000Z',
    };
    await model.invocations.seed(invocation);
    const creating = Promise.resolve(
      model.browsers.create({ ...BROWSER, invocation_id: invocation.id }, ORIGIN),
    );
    const outcome = creating.then(
      () => 'created',
      (error: { code?: string }) => error.code,
    );
    await model.invocations.update(invocation.id, { status: 'failed' });
    expect(await outcome).toBe('conflict');
    expect(model.browsers.list(invocation.id)).toEqual([]);
  });

  it('ends the browsers of an invocation in one call', async () => {
    const { model } = testModel();
    const invocation = {
      id: 'inv_1',
      app_name: 'shop',
      action_name: 'buy',
      version: 'latest',
      status: 'running' as const,
      started_at: '2026-11-22T10:00:00.000Z',
    };
    await model.invocations.seed(invocation);
    await model.browsers.create({ ...BROWSER, invocation_id: invocation.id }, ORIGIN);
    await model.browsers.create({ ...BROWSER, invocation_id: invocation.id }, ORIGIN);
    const unrelated = await model.browsers.create(BROWSER, ORIGIN);
    await model.invocations.endBrowsersOf(invocation.id);
    expect(model.browsers.list(invocation.id)).toEqual([]);
    expect(model.browsers.list().map((session) => session.session_id)).toEqual([
      unrelated.record.session_id,
    ]);
  });
});

describe('why a session ended', () => {
  it('keeps the reason in the record: a delete, the idle time-out', async () => {
    const { model, advance } = testModel();
    const deleted = await model.browsers.create(BROWSER, ORIGIN);
    await model.browsers.delete(deleted.record.session_id);
    expect(await model.browsers.get(deleted.record.session_id)).toMatchObject({
      end_reason: 'deleted',
    });
    const idle = await model.browsers.create({ ...BROWSER, timeout_seconds: 10 }, ORIGIN);
    advance(11_000);
    model.browsers.sweep();
    await expect
      .poll(async () => (await model.browsers.get(idle.record.session_id)).end_reason)
      .toBe('timed_out');
  });
});

describe('a node of a cluster', () => {
  const tagged = (tag: string) => (id: string) => id.slice(id.indexOf('_') + 1).startsWith(tag);

  it('makes ids that carry its tag, lists the browsers of every node, recovers only its own', async () => {
    const one = testModel({ node: { tag: 'nOne', owns: tagged('nOne') } });
    const two = testModel({
      node: { tag: 'nTwo', owns: tagged('nTwo') },
      engines: { ...one, engines: { ...one.engines } } as never,
    });
    const first = await one.model.browsers.create(BROWSER, ORIGIN);
    expect(first.record.session_id).toMatch(/^br_nOne[A-Za-z0-9]{12}$/);
    // Node two starting leaves node one's running browser alone.
    expect(await two.model.browsers.recover()).toBe(0);
    expect(await one.model.browsers.get(first.record.session_id)).not.toHaveProperty('deleted_at');
    const second = await two.model.browsers.create(BROWSER, ORIGIN);
    const active = await two.model.browsers.page({ offset: 0, limit: 10, status: 'active' });
    expect(active.items.map((record) => record.session_id).sort()).toEqual(
      [first.record.session_id, second.record.session_id].sort(),
    );
    // Node one lost: the cluster marks its sessions ended.
    expect(await two.model.browsers.endLost(tagged('nOne'))).toBe(1);
    const lost = await two.model.browsers.get(first.record.session_id);
    expect(lost).toMatchObject({ end_reason: 'node_lost' });
    expect(lost.deleted_at).toBeDefined();
  });
});
