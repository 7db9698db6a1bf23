import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildExtensionArchive, ContractContext } from '@x/testing';
import type { Extension } from '@x/types';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startServer } from '../server.js';
import { testConfig, useSite } from '../test-support/servers.js';

const TOKEN = 'extension-token';
const site = useSite();

async function upload(api: ContractContext, archive: Uint8Array, name: string) {
  const form = new FormData();
  form.set('file', new Blob([archive as Uint8Array<ArrayBuffer>]), 'extension.zip');
  form.set('name', name);
  return api.call('POST', '/extensions', { body: form });
}

/** Opens the test site in the browser at `cdpUrl` and waits for the fixture's content script. */
async function expectContentScript(cdpUrl: string): Promise<void> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    const page = browser.contexts()[0]?.pages()[0];
    await page?.goto(site.url);
    await page?.waitForFunction(
      () => document.documentElement.dataset.fixture === 'loaded',
      undefined,
      { timeout: 10_000 },
    );
    expect(await page?.evaluate(() => document.documentElement.dataset.fixture)).toBe('loaded');
  } finally {
    await browser.close();
  }
}

describe('extensions on the server', () => {
  it('load into browsers and pools that name them: the content script acts on a page, last_used_at is set, and a restart keeps them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-extensions-'));
    const config = testConfig({
      XB_ALLOW_NETWORKS: '127.0.0.1/32',
      XB_DATA_DIR: dataDir,
      XB_PORT: '0',
      XB_TOKENS: TOKEN,
    });
    const server = await startServer(config, pino({ level: 'silent' }));
    const api = new ContractContext({ baseUrl: server.url, token: TOKEN, readOnlyToken: TOKEN });
    let id = '';
    try {
      const uploaded = await upload(api, buildExtensionArchive(), 'marker');
      expect(uploaded.status).toBe(201);
      expect((uploaded.json as Extension).last_used_at).toBeUndefined();
      const session = (
        await api.call('POST', '/browsers', { json: { extensions: [{ name: 'marker' }] } })
      ).json as {
        session_id: string;
        cdp_ws_url: string;
      };
      id = session.session_id;
      await expectContentScript(session.cdp_ws_url);
      const [listed] = (await api.call('GET', '/extensions')).json as Extension[];
      expect(listed?.last_used_at).toBeDefined();

      // A pool's browsers load the extensions it names as well.
      const pool = await api.call('POST', '/browser_pools', {
        json: { name: 'with-marker', size: 1, extensions: [{ name: 'marker' }] },
      });
      expect(pool.status).toBe(201);
      const acquired = await api.call('POST', '/browser_pools/with-marker/acquire', {
        json: { acquire_timeout_seconds: 20 },
      });
      expect(acquired.status).toBe(200);
      await expectContentScript((acquired.json as { cdp_ws_url: string }).cdp_ws_url);
      expect((await api.call('DELETE', '/browser_pools/with-marker?force=true')).status).toBe(204);
    } finally {
      if (id) await api.call('DELETE', `/browsers/${id}`);
      await server.close();
    }
    const again = await startServer(config, pino({ level: 'silent' }));
    try {
      const listed = (
        await new ContractContext({ baseUrl: again.url, token: TOKEN, readOnlyToken: TOKEN }).call(
          'GET',
          '/extensions',
        )
      ).json as Extension[];
      expect(listed.map((extension) => extension.name)).toEqual(['marker']);
    } finally {
      await again.close();
    }
  });
});
