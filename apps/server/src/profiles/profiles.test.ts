import { createHash } from 'node:crypto';
import type { BrowserPool, BrowserSession, Profile } from '@x/types';
import { chromium } from 'playwright-core';
import { extract } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { logIn, stateOf, useLoginSite } from '../test-support/login-site.js';
import { jsonCaller, useTestServer } from '../test-support/servers.js';

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('profiles on the server', () => {
  const handle = useTestServer();
  const site = useLoginSite();
  const call = jsonCaller(() => handle.server.url);

  it('log in once: the next session, and a pool, start logged in; a pool never changes it', async () => {
    const profile = (await call<Profile>('POST', '/profiles', { name: 'shop-login' })).json;
    const first = await call<BrowserSession>('POST', '/browsers', {
      profile: { name: 'shop-login', save_changes: true },
    });
    expect(first.status).toBe(201);
    expect((await stateOf(first.json.cdp_ws_url, site.url)).title).toBe('please log in');
    await logIn(first.json.cdp_ws_url, site.url);
    const second = await call<{ message: string }>('POST', '/browsers', {
      profile: { id: profile.id, save_changes: true },
    });
    expect(second.status).toBe(409);
    expect(second.json.message).toContain(first.json.session_id);
    expect((await call('DELETE', `/browsers/${first.json.session_id}`)).status).toBe(204);
    const saved = (await call<Profile>('GET', `/profiles/${profile.id}`)).json;
    expect(saved.updated_at).toBeDefined();

    const next = await call<BrowserSession>('POST', '/browsers', { profile: { id: profile.id } });
    expect(next.json.profile).toMatchObject({ id: profile.id, save_changes: false });
    expect(await stateOf(next.json.cdp_ws_url, site.url)).toEqual({
      title: 'welcome ada-42',
      user: 'ada',
      cart: '3 apples',
    });
    await call('DELETE', `/browsers/${next.json.session_id}`);

    const before = await api(handle).call('GET', `/profiles/${profile.id}/download`);
    const pool = (
      await call<BrowserPool>('POST', '/browser_pools', {
        size: 1,
        fill_rate_per_minute: 100,
        profile: { name: 'shop-login' },
      })
    ).json;
    const leased = await call<BrowserSession>('POST', `/browser_pools/${pool.id}/acquire`, {});
    expect(leased.status).toBe(200);
    expect((await stateOf(leased.json.cdp_ws_url, site.url)).title).toBe('welcome ada-42');
    // The pool's browser logs in as someone else, and is given back: the profile stays.
    const browser = await chromium.connectOverCDP(leased.json.cdp_ws_url);
    await browser
      .contexts()[0]
      ?.addCookies([
        { name: 'sid', value: 'mallory', url: site.url, expires: Date.now() / 1000 + 3600 },
      ]);
    await browser.close();
    await call('POST', `/browser_pools/${pool.id}/release`, {
      session_id: leased.json.session_id,
      reuse: false,
    });
    await call('DELETE', `/browser_pools/${pool.id}?force=true`);
    const after = await api(handle).call('GET', `/profiles/${profile.id}/download`);
    expect(digest(after.bytes)).toBe(digest(before.bytes));
    expect((await call<Profile>('GET', `/profiles/${profile.id}`)).json.updated_at).toBe(
      saved.updated_at,
    );
  });

  it('download the saved data as a tar of the user data it keeps, not the caches', async () => {
    const profile = (await call<Profile>('POST', '/profiles', {})).json;
    const session = await call<BrowserSession>('POST', '/browsers', {
      profile: { id: profile.id, save_changes: true },
    });
    await logIn(session.json.cdp_ws_url, site.url);
    await call('DELETE', `/browsers/${session.json.session_id}`);
    const tar = await api(handle).call('GET', `/profiles/${profile.id}/download`);
    const names = await tarNames(tar.bytes);
    expect(names.some((name) => name.startsWith('Default/Cookies'))).toBe(true);
    expect(names.some((name) => name.startsWith('Default/Local Storage/'))).toBe(true);
    expect(names.some((name) => name.startsWith('Default/IndexedDB/'))).toBe(true);
    expect(
      names.filter((name) => /Cache|Crash|History|Sessions/.test(name.split('/')[1] ?? '')),
    ).toEqual([]);
  });
});

const api = (handle: ReturnType<typeof useTestServer>) => handle.api;

/** The entry names of a tar, read with the tar reader the server uses. */
async function tarNames(tar: Uint8Array): Promise<string[]> {
  const names: string[] = [];
  const reader = extract();
  reader.on('entry', (header, stream, next) => {
    names.push(header.name.replace(/^\.\//, ''));
    stream.on('end', next);
    stream.resume();
  });
  const finished = new Promise<void>((resolve, reject) => {
    reader.on('finish', () => resolve());
    reader.on('error', reject);
  });
  reader.end(Buffer.from(tar));
  await finished;
  return names;
}
