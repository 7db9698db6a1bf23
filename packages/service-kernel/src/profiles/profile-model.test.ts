import { describe, expect, it } from 'vitest';
import { BROWSER, testModel } from '../test-support/memory-engines.js';
import { USER_DATA_DIR } from './profile-data.js';

const ORIGIN = 'http://localhost:1';
const COOKIES = `${USER_DATA_DIR}/Default/Cookies`;
const CACHE = `${USER_DATA_DIR}/Default/Cache/data_0`;
const PAGE = { offset: 0, limit: 20 };

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (content: Uint8Array | undefined) => new TextDecoder().decode(content);
/** What a call that may answer at once or later is refused with. */
const refused = (work: () => unknown) => expect(Promise.resolve().then(work)).rejects;

describe('profiles', () => {
  it('are named once, found by id or name, listed by page with name and query filters', async () => {
    const { model } = testModel();
    const shop = await model.profiles.create('shop.v2');
    await model.profiles.create('mail');
    await model.profiles.create(undefined);
    await refused(() => model.profiles.create('shop.v2')).toThrow(/already exists/);
    expect(await model.profiles.find('shop.v2')).toEqual(shop);
    expect(await model.profiles.find(shop.id)).toEqual(shop);
    const first = await model.profiles.list({ offset: 0, limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.headers).toEqual({ 'x-has-more': 'true', 'x-next-offset': '2' });
    expect((await model.profiles.list({ offset: 2, limit: 2 })).headers).toEqual({
      'x-has-more': 'false',
    });
    expect((await model.profiles.list({ ...PAGE, name: 'mail' })).items.map((p) => p.name)).toEqual(
      ['mail'],
    );
    // Any case, in the id or the name: `.` is in no id, so only the name can match.
    expect((await model.profiles.list({ ...PAGE, query: 'P.V' })).items).toEqual([shop]);
    expect((await model.profiles.rename('shop.v2', 'store')).name).toBe('store');
    await refused(() => model.profiles.rename('store', 'mail')).toThrow(/already exists/);
  });

  it("save a browser's state when it is deleted, and load it into the next browser", async () => {
    const { model, instances, advance } = testModel();
    const profile = await model.profiles.create('login');
    advance(1000);
    const first = await model.browsers.create(
      { ...BROWSER, profile: { name: 'login', save_changes: true } },
      ORIGIN,
    );
    expect(first.record.profile).toMatchObject({ id: profile.id, save_changes: true });
    expect((await model.profiles.find('login')).last_used_at).toBe('2026-11-22T10:00:01.000Z');
    const instance = instances.get(first.record.session_id);
    instance?.files.putFile(COOKIES, bytes('session=1'));
    instance?.files.putFile(CACHE, bytes('cached'));
    advance(1000);
    await model.browsers.delete(first.record.session_id);
    expect((await model.profiles.find('login')).updated_at).toBe('2026-11-22T10:00:02.000Z');

    const second = await model.browsers.create({ ...BROWSER, profile: { id: profile.id } }, ORIGIN);
    const files = instances.get(second.record.session_id)?.files;
    expect(text(files?.nodes.get(COOKIES)?.content)).toBe('session=1');
    expect(files?.kind(CACHE)).toBeUndefined();
    // A browser that does not save leaves the profile as it was.
    files?.putFile(COOKIES, bytes('session=2'));
    await model.browsers.delete(second.record.session_id);
    const third = await model.browsers.create({ ...BROWSER, profile: { name: 'login' } }, ORIGIN);
    expect(text(instances.get(third.record.session_id)?.files.nodes.get(COOKIES)?.content)).toBe(
      'session=1',
    );
    expect((await model.profiles.find('login')).updated_at).toBe('2026-11-22T10:00:02.000Z');
  });

  it('let one browser at a time save into a profile: 409 names the holder, until it ends', async () => {
    const { model } = testModel();
    await model.profiles.create('p');
    const writer = await model.browsers.create(
      { ...BROWSER, profile: { name: 'p', save_changes: true } },
      ORIGIN,
    );
    const holder = writer.record.session_id;
    await refused(() =>
      model.browsers.create({ ...BROWSER, profile: { name: 'p', save_changes: true } }, ORIGIN),
    ).toThrow(new RegExp(`held for saving by browser session "${holder}"`));
    await expect(model.profiles.delete('p')).rejects.toThrow(/held for saving/);
    // Reading is fine while another browser writes.
    await model.browsers.create({ ...BROWSER, profile: { name: 'p' } }, ORIGIN);
    await model.browsers.delete(holder);
    await model.browsers.create({ ...BROWSER, profile: { name: 'p', save_changes: true } }, ORIGIN);
  });

  it('keep the last version when a browser crashes or its save fails, and let go of it', async () => {
    const { model, instances } = testModel();
    await model.profiles.create('p');
    const crashing = await model.browsers.create(
      { ...BROWSER, profile: { name: 'p', save_changes: true } },
      ORIGIN,
    );
    instances.get(crashing.record.session_id)?.files.putFile(COOKIES, bytes('lost'));
    instances.get(crashing.record.session_id)?.crash();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await model.profiles.find('p')).updated_at).toBeUndefined();

    const failing = await model.browsers.create(
      { ...BROWSER, profile: { name: 'p', save_changes: true } },
      ORIGIN,
    );
    const instance = instances.get(failing.record.session_id);
    if (instance) instance.saveFailure = Object.assign(new Error('full'), { code: 'ENOSPC' });
    await model.browsers.delete(failing.record.session_id);
    expect((await model.profiles.find('p')).updated_at).toBeUndefined();
    const next = await model.browsers.create(
      { ...BROWSER, profile: { name: 'p', save_changes: true } },
      ORIGIN,
    );
    expect(instances.get(next.record.session_id)?.files.kind(COOKIES)).toBeUndefined();
  });

  it('are 404 when unknown, and cannot be deleted or renamed while a pool names them', async () => {
    const { model } = testModel();
    await refused(() =>
      model.browsers.create({ ...BROWSER, profile: { name: 'nope' } }, ORIGIN),
    ).toThrow(/No profile "nope"/);
    await model.profiles.create('p');
    await model.pools.create({ name: 'warm', size: 1, profile: { name: 'p' } }, ORIGIN);
    await expect(model.profiles.delete('p')).rejects.toThrow(/browser pool "warm"/);
    await refused(() => model.profiles.rename('p', 'q')).toThrow(/browser pool "warm"/);
    await refused(() => model.pools.create({ size: 1, profile: { name: 'nope' } }, ORIGIN)).toThrow(
      /No profile "nope"/,
    );
  });
});

describe('proxies', () => {
  const CUSTOM = {
    type: 'custom' as const,
    protocol: 'http' as const,
    config: { host: 'proxy.test', port: 3128, username: 'u', password: 'secret' },
  };

  it('keep the password sealed, out of every record, and open it only for a launch', async () => {
    const { model, engines, launches } = testModel();
    const proxy = await model.proxies.create({ ...CUSTOM, bypass_hosts: ['localhost'] });
    expect(proxy.config).toEqual({
      host: 'proxy.test',
      port: 3128,
      username: 'u',
      has_password: true,
    });
    expect(JSON.stringify((await model.proxies.list(PAGE)).items)).not.toContain('secret');
    expect((await engines.records.proxies.get(proxy.id))?.sealedPassword).toBe('sealed:secret');
    const browser = await model.browsers.create({ ...BROWSER, proxy_id: proxy.id }, ORIGIN);
    expect(browser.record.proxy_id).toBe(proxy.id);
    expect(launches.at(-1)?.proxy).toEqual({
      protocol: 'http',
      host: 'proxy.test',
      port: 3128,
      username: 'u',
      password: 'secret',
      bypassHosts: ['localhost'],
    });
    const cleared = await model.proxies.update(proxy.id, { config: { password: null } });
    expect(cleared.config.has_password).toBe(false);
    expect((await model.proxies.route(proxy.id)).password).toBeUndefined();
  });

  it('say so when a password cannot be opened (the key changed), and take a new one', async () => {
    const { model, engines } = testModel();
    const proxy = await model.proxies.create(CUSTOM);
    const secrets = engines.secrets as { open: (sealed: string) => string };
    const open = secrets.open;
    secrets.open = () => {
      throw new Error('unable to authenticate data');
    };
    await refused(() => model.browsers.create({ ...BROWSER, proxy_id: proxy.id }, ORIGIN)).toThrow(
      /sealed with another key.*set it again/,
    );
    secrets.open = open;
    await model.proxies.update(proxy.id, { config: { password: 'new' } });
    expect((await model.proxies.route(proxy.id)).password).toBe('new');
  });

  it('refuse deleting one browsers use unless forced, and one a pool names', async () => {
    const { model } = testModel();
    const proxy = await model.proxies.create(CUSTOM);
    const browser = await model.browsers.create({ ...BROWSER, proxy_id: proxy.id }, ORIGIN);
    await refused(() => model.proxies.delete(proxy.id, false)).toThrow(browser.record.session_id);
    await model.proxies.delete(proxy.id, true);
    await refused(() => model.proxies.get(proxy.id)).toThrow(/No proxy/);
    const pooled = await model.proxies.create(CUSTOM);
    await model.pools.create({ name: 'routed', size: 1, proxy_id: pooled.id }, ORIGIN);
    await refused(() => model.proxies.delete(pooled.id, true)).toThrow(/browser pool "routed"/);
    await refused(() => model.browsers.create({ ...BROWSER, proxy_id: 'px_nope' }, ORIGIN)).toThrow(
      /No proxy "px_nope"/,
    );
  });

  it('record what a check found, and forget it when the proxy changes', async () => {
    const { model } = testModel();
    const proxy = await model.proxies.create(CUSTOM);
    expect(await model.proxies.check(proxy.id)).toMatchObject({
      status: 'available',
      ip_address: '192.0.2.7',
      last_checked: '2026-11-22T10:00:00.000Z',
    });
    const moved = await model.proxies.update(proxy.id, { config: { host: 'down.test' } });
    expect(moved.status).toBeUndefined();
    const checked = await model.proxies.check(proxy.id);
    expect(checked.status).toBe('unavailable');
    expect(checked.ip_address).toBeUndefined();
    expect((await model.proxies.get(proxy.id)).status).toBe('unavailable');
  });
});
