import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Kernel from '@onkernel/sdk';
import type { BrowserProxy, BrowserSession } from '@x/types';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestProxy } from '../test-support/http-proxy.js';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const site = createServer((request, response) => response.end(`page ${request.url}`));
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

const handle = useTestServer();
const call = jsonCaller(() => handle.server.url);

/** Loads `path` of the site in the session's browser; what the page says. */
async function visit(cdpUrl: string, path: string): Promise<string> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    const page = browser.contexts()[0]?.pages()[0];
    if (!page) throw new Error('no page');
    await page.goto(`${siteUrl}${path}`, { timeout: 10_000 });
    return (await page.textContent('body')) ?? '';
  } finally {
    await browser.close();
  }
}

describe('a running browser switched to another proxy', () => {
  it('sends new connections through the proxy named, another one, then direct again', async () => {
    const first = await startTestProxy();
    const second = await startTestProxy({ username: 'agent', password: 'pw-switch' });
    try {
      const proxyOf = async (port: number, extra: Record<string, unknown> = {}) =>
        (
          await call<BrowserProxy>('POST', '/proxies', {
            type: 'custom',
            config: { host: '127.0.0.1', port, ...extra },
          })
        ).json;
      const a = await proxyOf(first.port);
      const b = await proxyOf(second.port, { username: 'agent', password: 'pw-switch' });
      const { json: session } = await call<BrowserSession>('POST', '/browsers', {});
      const id = session.session_id;
      expect(await visit(session.cdp_ws_url, '/direct')).toBe('page /direct');
      // A link the session plants where a careless server might write its own files leads it
      // nowhere: the switch writes nothing into the session's home.
      const canary = mkdtempSync(join(tmpdir(), 'xb-canary-'));
      chmodSync(canary, 0o777);
      const planted = await call<{ exit_code: number }>('POST', `/browsers/${id}/process/exec`, {
        command: 'sh',
        args: [
          '-c',
          `ln -s ${canary} /home/browser/.xb && ln -s ${canary} /home/browser/.extensions`,
        ],
      });
      expect(planted.json.exit_code).toBe(0);
      expect(first.seen).toEqual([]);

      const switched = await call<BrowserSession>('PATCH', `/browsers/${id}`, { proxy_id: a.id });
      expect(switched).toMatchObject({ status: 200, json: { proxy_id: a.id } });
      expect(readdirSync(canary)).toEqual([]);
      rmSync(canary, { recursive: true, force: true });
      expect(await visit(session.cdp_ws_url, '/through-a')).toBe('page /through-a');
      expect(first.seen.map((request) => request.target)).toContain(`${siteUrl}/through-a`);
      // A proxy in use is one the browser uses now: deleting it is 409.
      expect((await call('DELETE', `/proxies/${a.id}`)).status).toBe(409);

      await call('PATCH', `/browsers/${id}`, { proxy_id: b.id });
      expect(await visit(session.cdp_ws_url, '/through-b')).toBe('page /through-b');
      const throughB = second.seen.filter((request) => request.target === `${siteUrl}/through-b`);
      expect(throughB.length).toBeGreaterThan(0);
      expect(throughB.every((request) => request.authorization?.startsWith('Basic '))).toBe(true);
      expect(first.seen.map((request) => request.target)).not.toContain(`${siteUrl}/through-b`);

      const direct = await call<BrowserSession>('PATCH', `/browsers/${id}`, { proxy_id: '' });
      expect(direct.json.proxy_id).toBeUndefined();
      const seenBefore = first.seen.length + second.seen.length;
      expect(await visit(session.cdp_ws_url, '/direct-again')).toBe('page /direct-again');
      expect(first.seen.length + second.seen.length).toBe(seenBefore);
      expect((await call('DELETE', `/proxies/${a.id}`)).status).toBe(204);
      expect((await call('PATCH', `/browsers/${id}`, { proxy_id: 'prx_nothere' })).status).toBe(
        404,
      );
      await call('DELETE', `/browsers/${id}`);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('is switched by the public Kernel SDK 0.84 (browsers.update with proxy_id)', async () => {
    const proxy = await startTestProxy();
    try {
      const sdk = new Kernel({ apiKey: TEST_TOKEN, baseURL: handle.server.url, maxRetries: 0 });
      const record = (
        await call<BrowserProxy>('POST', '/proxies', {
          type: 'custom',
          config: { host: '127.0.0.1', port: proxy.port },
        })
      ).json;
      const created = await sdk.browsers.create({});
      const updated = await sdk.browsers.update(created.session_id, { proxy_id: record.id });
      expect(updated.proxy_id).toBe(record.id);
      expect(await visit(created.cdp_ws_url, '/sdk')).toBe('page /sdk');
      expect(proxy.seen.map((request) => request.target)).toContain(`${siteUrl}/sdk`);
      await sdk.browsers.deleteByID(created.session_id);
    } finally {
      await proxy.close();
    }
  });
});
