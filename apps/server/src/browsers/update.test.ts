import Kernel from '@onkernel/sdk';
import { buildExtensionArchive } from '@x/testing';
import type { BrowserSession, Extension } from '@x/types';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { deployTestApp, jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const handle = useTestServer();
const call = jsonCaller(() => handle.server.url);

/** The page's size as its own script reads it, in the browser at `cdpUrl`. */
async function pageSize(cdpUrl: string, newTab = false): Promise<string> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    const context = browser.contexts()[0];
    const page = newTab ? await context?.newPage() : context?.pages()[0];
    await page?.goto('data:text/html,<p>sized</p>');
    return (await page?.evaluate(() => `${innerWidth}x${innerHeight}`)) ?? 'no page';
  } finally {
    await browser.close();
  }
}

describe('a running browser changed on real Chromium', () => {
  it('lays new tabs out at the viewport; resizes its tab, tabs opened later and its screenshots', async () => {
    const created = await call<BrowserSession>('POST', '/browsers', {
      name: 'resized',
      viewport: { width: 1280, height: 720 },
    });
    expect(created.status).toBe(201);
    const { cdp_ws_url: cdp, session_id: id } = created.json;
    expect(await pageSize(cdp)).toBe('1280x720');
    // A tab a client opens lays out at the session's viewport too.
    expect(await pageSize(cdp, true)).toBe('1280x720');
    const updated = await call<BrowserSession>('PATCH', '/browsers/resized', {
      viewport: { width: 800, height: 600 },
    });
    expect(updated).toMatchObject({ status: 200, json: { viewport: { width: 800, height: 600 } } });
    expect(await pageSize(cdp)).toBe('800x600');
    expect(await pageSize(cdp, true)).toBe('800x600');
    const shot = await fetch(`${handle.server.url}/browsers/${id}/computer/screenshot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const png = new DataView(await shot.arrayBuffer());
    expect(`${png.getUint32(16)}x${png.getUint32(20)}`).toBe('800x600');
    expect((await call('DELETE', '/browsers/resized')).status).toBe(204);
  });

  it('goes on recording a resized browser in a new replay with force, both videos playable', async () => {
    const { json: session } = await call<BrowserSession>('POST', '/browsers', {});
    const id = session.session_id;
    const first = await call<{ replay_id: string }>('POST', `/browsers/${id}/replays`, {
      framerate: 10,
    });
    expect(first.status).toBe(201);
    const refused = await call<{ code: string }>('PATCH', `/browsers/${id}`, {
      viewport: { width: 640, height: 480 },
    });
    expect(refused).toMatchObject({ status: 409, json: { code: 'conflict' } });
    const forced = await call('PATCH', `/browsers/${id}`, {
      viewport: { width: 640, height: 480, force: true },
    });
    expect(forced.status).toBe(200);
    const { json: replays } = await call<{ replay_id: string; finished_at?: string }[]>(
      'GET',
      `/browsers/${id}/replays`,
    );
    expect(replays).toHaveLength(2);
    expect(replays[0]?.finished_at).toBeDefined();
    const second = replays[1]?.replay_id ?? '';
    expect((await call('POST', `/browsers/${id}/replays/${second}/stop`)).status).toBe(200);
    for (const replay of [first.json.replay_id, second]) {
      const video = await fetch(`${handle.server.url}/browsers/${id}/replays/${replay}`, {
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
      });
      expect(video.status).toBe(200);
      const bytes = new Uint8Array(await video.arrayBuffer());
      expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe('ftyp');
    }
    await call('DELETE', `/browsers/${id}`);
  });

  it('is driven by the public Kernel SDK 0.84: update by name, delete by name, invocation browsers, extension metadata', async () => {
    const sdk = new Kernel({ apiKey: TEST_TOKEN, baseURL: handle.server.url, maxRetries: 2 });
    const created = await sdk.browsers.create({ name: 'sdk-agent', tags: { team: 'shop' } });
    expect(created).toMatchObject({ name: 'sdk-agent', tags: { team: 'shop' } });
    const updated = await sdk.browsers.update('sdk-agent', {
      tags: { team: 'ops' },
      viewport: { width: 1024, height: 768 },
    });
    expect(updated).toMatchObject({
      session_id: created.session_id,
      tags: { team: 'ops' },
      viewport: { width: 1024, height: 768 },
    });
    expect(await pageSize(created.cdp_ws_url)).toBe('1024x768');
    expect((await sdk.browsers.retrieve('sdk-agent')).session_id).toBe(created.session_id);
    // A conflict is not retried: x-should-retry: false, so the SDK gives up at once (one PATCH
    // sent, where a retried call would send three).
    const other = await sdk.browsers.create({});
    let patches = 0;
    const counting = new Kernel({
      apiKey: TEST_TOKEN,
      baseURL: handle.server.url,
      maxRetries: 2,
      fetch: (url, init) => {
        if (init?.method === 'PATCH') patches += 1;
        return fetch(url, init);
      },
    });
    await expect(
      counting.browsers.update(other.session_id, { name: 'sdk-agent' }),
    ).rejects.toMatchObject({ status: 409 });
    expect(patches).toBe(1);
    await sdk.browsers.deleteByID('sdk-agent');
    await expect(sdk.browsers.retrieve('sdk-agent')).rejects.toMatchObject({ status: 404 });

    const app = await deployTestApp(handle.server.url);
    const invocation = await call<{ id: string }>('POST', '/invocations', app.invocation());
    const ofInvocation = await sdk.browsers.create({ invocation_id: invocation.json.id });
    await sdk.invocations.deleteBrowsers(invocation.json.id);
    expect((await sdk.browsers.retrieve(ofInvocation.session_id)).deleted_at).toBeDefined();
    expect((await sdk.browsers.retrieve(other.session_id)).deleted_at).toBeUndefined();
    await app.remove();

    const form = new FormData();
    form.set('file', new Blob([buildExtensionArchive() as Uint8Array<ArrayBuffer>]), 'e.zip');
    form.set('name', 'sdk-ext');
    const uploaded = await fetch(`${handle.server.url}/extensions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
      body: form,
    });
    const extension = (await uploaded.json()) as Extension;
    const metadata = await sdk.extensions.get('sdk-ext');
    expect(metadata).toMatchObject({
      id: extension.id,
      name: 'sdk-ext',
      size_bytes: extension.size_bytes,
      checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    await sdk.browsers.deleteByID(other.session_id);
  });
});
