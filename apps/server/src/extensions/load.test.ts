import Kernel from '@onkernel/sdk';
import { buildExtensionArchive } from '@x/testing';
import type { BrowserSession, LoadedExtensions } from '@x/types';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { jsonCaller, TEST_TOKEN, useSite, useTestServer } from '../test-support/servers.js';

const handle = useTestServer();
const call = jsonCaller(() => handle.server.url);
const site = useSite();

/** Loads archives into a running browser through the API, each under its folder name. */
async function load(id: string, archives: Record<string, Uint8Array>) {
  const form = new FormData();
  Object.entries(archives).forEach(([name, archive], index) => {
    form.set(`extensions[${index}][name]`, name);
    form.set(
      `extensions[${index}][zip_file]`,
      new Blob([archive as Uint8Array<ArrayBuffer>]),
      `${name}.zip`,
    );
  });
  const response = await fetch(`${handle.server.url}/browsers/${id}/extensions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_TOKEN}` },
    body: form,
  });
  return { status: response.status, json: (await response.json()) as LoadedExtensions };
}

/** Whether the fixture's content script ran on a page just loaded in `page`. */
async function contentScriptRan(page: import('playwright-core').Page): Promise<boolean> {
  await page.goto(site.url);
  return page
    .waitForFunction(() => document.documentElement.dataset.fixture === 'loaded', undefined, {
      timeout: 5_000,
    })
    .then(
      () => true,
      () => false,
    );
}

describe('extensions loaded into a running browser, on real Chromium', () => {
  it('run their content script on the next page, with no restart: the CDP client stays connected', async () => {
    const { json: session } = await call<BrowserSession>('POST', '/browsers', {});
    const playwright = await chromium.connectOverCDP(session.cdp_ws_url);
    try {
      const page = playwright.contexts()[0]?.pages()[0];
      if (!page) throw new Error('no page');
      expect(await contentScriptRan(page)).toBe(false);
      const pid = await call<{ stdout_b64: string }>(
        'POST',
        `/browsers/${session.session_id}/process/exec`,
        {
          command: 'sh',
          args: ['-c', 'echo kept > /home/browser/kept.txt'],
        },
      );
      expect(pid.status).toBe(200);
      const loaded = await load(session.session_id, { fixture: buildExtensionArchive() });
      expect(loaded.status).toBe(200);
      expect(loaded.json.extensions[0]?.extension_id).toMatch(/^[a-p]{32}$/);
      // The same Playwright connection, the same page: the next page load runs the script.
      expect(playwright.isConnected()).toBe(true);
      expect(await contentScriptRan(page)).toBe(true);
      const kept = await fetch(
        `${handle.server.url}/browsers/${session.session_id}/fs/read_file?path=/home/browser/kept.txt`,
        { headers: { authorization: `Bearer ${TEST_TOKEN}` } },
      );
      expect(await kept.text()).toBe('kept\n');
    } finally {
      await playwright.close();
    }
    await call('DELETE', `/browsers/${session.session_id}`);
  });

  it('load into a browser created with extensions too, each content script acting', async () => {
    const form = new FormData();
    form.set('file', new Blob([buildExtensionArchive() as Uint8Array<ArrayBuffer>]), 'e.zip');
    form.set('name', 'at-start');
    const uploaded = await fetch(`${handle.server.url}/extensions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { json: session } = await call<BrowserSession>('POST', '/browsers', {
      extensions: [{ name: 'at-start' }],
    });
    const second = buildExtensionArchive({
      manifest: {
        manifest_version: 3,
        name: 'Second',
        version: '1.0.0',
        content_scripts: [{ matches: ['<all_urls>'], js: ['second.js'] }],
      },
      files: { 'second.js': 'document.documentElement.dataset.second = "loaded";\n' },
    });
    expect((await load(session.session_id, { second })).status).toBe(200);
    const playwright = await chromium.connectOverCDP(session.cdp_ws_url);
    try {
      const page = playwright.contexts()[0]?.pages()[0];
      if (!page) throw new Error('no page');
      expect(await contentScriptRan(page)).toBe(true);
      await page.waitForFunction(
        () => document.documentElement.dataset.second === 'loaded',
        undefined,
        {
          timeout: 5_000,
        },
      );
    } finally {
      await playwright.close();
    }
    await call('DELETE', `/browsers/${session.session_id}`);
  });

  it('is driven by the public Kernel SDK 0.84 (browsers.loadExtensions)', async () => {
    const sdk = new Kernel({ apiKey: TEST_TOKEN, baseURL: handle.server.url, maxRetries: 0 });
    const created = await sdk.browsers.create({});
    await sdk.browsers.loadExtensions(created.session_id, {
      extensions: [
        {
          name: 'from-sdk',
          zip_file: new File([buildExtensionArchive() as Uint8Array<ArrayBuffer>], 'from-sdk.zip', {
            type: 'application/zip',
          }),
        },
      ],
    });
    const playwright = await chromium.connectOverCDP(created.cdp_ws_url);
    try {
      const page = playwright.contexts()[0]?.pages()[0];
      if (!page) throw new Error('no page');
      expect(await contentScriptRan(page)).toBe(true);
    } finally {
      await playwright.close();
    }
    // A zip without a manifest: refused before anything is unpacked.
    await expect(
      sdk.browsers.loadExtensions(created.session_id, {
        extensions: [{ name: 'broken', zip_file: new File([new Uint8Array([1, 2, 3])], 'b.zip') }],
      }),
    ).rejects.toMatchObject({ status: 400 });
    await sdk.browsers.deleteByID(created.session_id);
  });
});
