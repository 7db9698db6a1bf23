import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserProxy, BrowserSession, Profile } from '@x/types';
import { describe, expect, it } from 'vitest';
import { apiOf } from '../test-support/api.js';
import { fakeService } from '../test-support/fakes.js';

const run = promisify(execFile);
const COOKIES = '/home/browser/.config/chromium/Default/Cookies';

describe('profiles in the fake', () => {
  it('download as a tar that tar unpacks, holding what the last session saved', async () => {
    const fake = fakeService();
    const api = apiOf(fake);
    const profile = (await api.call('POST', '/profiles', { json: { name: 'shop' } }))
      .json as Profile;
    const session = (
      await api.call('POST', '/browsers', {
        json: { profile: { name: 'shop', save_changes: true } },
      })
    ).json as BrowserSession;
    fake.file(session.session_id, COOKIES, 'sid=42');
    fake.file(session.session_id, '/home/browser/.config/chromium/Default/Cache/x', 'not kept');
    await api.call('DELETE', `/browsers/${session.session_id}`);
    for (const format of ['tar', 'tar.zst']) {
      const answer = await api.call('GET', `/profiles/${profile.id}/download?format=${format}`);
      const folder = await mkdtemp(join(tmpdir(), 'xb-profile-'));
      try {
        await writeFile(join(folder, `profile.${format}`), answer.bytes);
        const flags = format === 'tar' ? ['-xf'] : ['--zstd', '-xf'];
        await run('tar', [...flags, `profile.${format}`], { cwd: folder });
        expect(await readFile(join(folder, 'Default/Cookies'), 'utf8')).toBe('sid=42');
        await expect(readFile(join(folder, 'Default/Cache/x'))).rejects.toThrow(/ENOENT/);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    }
    expect(fake.state.profiles.get(profile.id)?.updated_at).toBeDefined();
  });
});

describe('proxies in the fake', () => {
  it('check as a test sets, and keep the password out of the state', async () => {
    const fake = fakeService();
    const api = apiOf(fake);
    const proxy = (
      await api.call('POST', '/proxies', {
        json: { type: 'custom', config: { host: 'p.test', port: 8080, password: 'pw-secret' } },
      })
    ).json as BrowserProxy;
    expect((await api.call('POST', `/proxies/${proxy.id}/check`)).json).toMatchObject({
      status: 'available',
      ip_address: '192.0.2.1',
    });
    fake.setProxyCheck('p.test:8080', { status: 'unavailable' });
    const checked = (await api.call('POST', `/proxies/${proxy.id}/check`)).json as BrowserProxy;
    expect(checked.status).toBe('unavailable');
    expect(checked.ip_address).toBeUndefined();
    expect(JSON.stringify([...fake.state.proxies.values()])).not.toContain('pw-secret');
    const session = (await api.call('POST', '/browsers', { json: { proxy_id: proxy.id } }))
      .json as BrowserSession;
    expect(session.proxy_id).toBe(proxy.id);
  });
});
