import { once } from 'node:events';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserSession, Profile } from '@x/types';
import { describe, expect, it } from 'vitest';
import { startBinary } from '../test-support/binary.js';
import { logIn, stateOf, useLoginSite } from '../test-support/login-site.js';
import { jsonCaller } from '../test-support/servers.js';

const TOKEN = 'restart-token';
const IN_PROFILE = '/home/browser/.config/chromium/Default/IndexedDB/padding.bin';

describe('profiles across restarts', () => {
  const site = useLoginSite();

  it('keep the last good version when the server is killed mid-save, and load it after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-profile-restart-'));
    const env = { XB_TOKENS: TOKEN };
    const first = await startBinary(dataDir, env);
    const call = jsonCaller(() => first.url, TOKEN);
    const profile = (await call<Profile>('POST', '/profiles', { name: 'survivor' })).json;
    const saving = { profile: { id: profile.id, save_changes: true } };
    const login = await call<BrowserSession>('POST', '/browsers', saving);
    await logIn(login.json.cdp_ws_url, site.url);
    expect((await call('DELETE', `/browsers/${login.json.session_id}`)).status).toBe(204);

    // A second session changes the login and grows the profile, then is killed while it saves.
    const doomed = await call<BrowserSession>('POST', '/browsers', saving);
    const padding = new Uint8Array(160 * 1024 * 1024);
    for (let offset = 0; offset < padding.byteLength; offset += 65_536)
      padding.set(crypto.getRandomValues(new Uint8Array(65_536)), offset);
    const put = await fetch(
      `${first.url}/browsers/${doomed.json.session_id}/fs/write_file?path=${encodeURIComponent(IN_PROFILE)}`,
      { method: 'PUT', headers: { authorization: `Bearer ${TOKEN}` }, body: padding },
    );
    expect(put.status).toBe(201);
    const profiles = join(dataDir, 'profiles');
    const deleting = call('DELETE', `/browsers/${doomed.json.session_id}`).catch(() => undefined);
    const deadline = Date.now() + 60_000;
    while (!readdirSync(profiles).some((name) => name.startsWith('.partial-'))) {
      if (Date.now() > deadline) throw new Error('the save never began');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    await deleting;

    const second = await startBinary(dataDir, env);
    try {
      expect(readdirSync(profiles).filter((name) => name.startsWith('.partial-'))).toEqual([]);
      const again = jsonCaller(() => second.url, TOKEN);
      const found = await again<Profile>('GET', '/profiles/survivor');
      expect(found.json.id).toBe(profile.id);
      const next = await again<BrowserSession>('POST', '/browsers', saving);
      expect(next.status).toBe(201);
      expect(await stateOf(next.json.cdp_ws_url, site.url)).toEqual({
        title: 'welcome ada-42',
        user: 'ada',
        cart: '3 apples',
      });
      const padded = await again(
        'GET',
        `/browsers/${next.json.session_id}/fs/file_info?path=${encodeURIComponent(IN_PROFILE)}`,
      );
      expect(padded.status).toBe(404);
    } finally {
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
    }
  });
});
