import { createHash } from 'node:crypto';
import type { BrowserPool, BrowserSession, Profile } from '@x/types';
import { chromium } from 'playwright-core';
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
    const names = tarNames(tar.bytes);
    expect(names.some((name) => name.startsWith('Default/Cookies'))).toBe(true);
    expect(names.some((name) => name.startsWith('Default/Local Storage/'))).toBe(true);
    expect(names.some((name) => name.startsWith('Default/IndexedDB/'))).toBe(true);
    expect(
      names.filter((name) => /Cache|Crash|History|Sessions/.test(name.split('/')[1] ?? '')),
    ).toEqual([]);
  });
});

const api = (handle: ReturnType<typeof useTestServer>) => handle.api;

/** The names in a tar (ustar or GNU, no long-name entries needed for these). */
function tarNames(tar: Uint8Array): string[] {
  const names: string[] = [];
  const decoder = new TextDecoder();
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.byteLength) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      decoder.decode(header.subarray(start, start + length)).replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === 'L') longName = decoder.decode(body).replace(/\0.*$/s, '');
    else {
      const prefix = field(345, 155);
      names.push(
        (longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100))).replace(/^\.\//, ''),
      );
      longName = undefined;
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}
