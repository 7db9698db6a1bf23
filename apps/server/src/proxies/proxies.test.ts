import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { BrowserProxy, BrowserSession } from '@x/types';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestProxy } from '../test-support/http-proxy.js';
import { processesOfUser } from '../test-support/processes.js';
import { jsonCaller, useTestServer } from '../test-support/servers.js';

const run = promisify(execFile);
const PASSWORD = 'pw-Zq81-never-shown';

/** A site on loopback: a page with an image and a worker that fetches, a download, and `/ip`. */
async function startSite() {
  const requests: { host: string; path: string }[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ host: request.headers.host ?? '', path });
    if (path === '/ip') return void response.end(request.socket.remoteAddress);
    if (path === '/worker.js')
      return void response
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end("fetch('/from-worker').then(() => postMessage('done'));");
    if (path === '/download')
      return void response
        .writeHead(200, { 'content-disposition': 'attachment; filename="report.txt"' })
        .end('report');
    response.writeHead(200, { 'content-type': 'text/html' }).end(
      `<img src="/pixel.png"><script>
        new Worker('/worker.js').onmessage = () => { document.title = 'worker done'; };
      </script>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const site = await startSite();
afterAll(() => site.close());

/** Opens the site in a session's browser; the page's title once its worker fetched. */
async function visit(cdpUrl: string, url: string): Promise<string> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    const page = browser.contexts()[0]?.pages()[0];
    if (!page) throw new Error('no page');
    await page.goto(url, { timeout: 10_000 });
    await page.waitForFunction(() => document.title === 'worker done', undefined, {
      timeout: 10_000,
    });
    return await page.title();
  } finally {
    await browser.close();
  }
}

/** Whether a navigation of the session's browser fails, and with what Chromium said. */
async function failedVisit(cdpUrl: string, url: string): Promise<string | undefined> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    await browser.contexts()[0]?.pages()[0]?.goto(url, { timeout: 10_000 });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await browser.close();
  }
}

describe('proxies on the server', () => {
  const handle = useTestServer({ XB_PROXY_CHECK_URL: `${site.url}/ip` });
  const call = jsonCaller(() => handle.server.url);

  const createProxy = async (port: number, extra: Record<string, unknown> = {}) =>
    (
      await call<BrowserProxy>('POST', '/proxies', {
        type: 'custom',
        config: { host: '127.0.0.1', port, ...extra },
        bypass_hosts: ['localhost'],
      })
    ).json;

  it('route pages, workers and downloads through the proxy, bypass hosts directly', async () => {
    const proxy = await startTestProxy();
    try {
      const record = await createProxy(proxy.port);
      const session = await call<BrowserSession>('POST', '/browsers', { proxy_id: record.id });
      expect(session.json.proxy_id).toBe(record.id);
      expect(await visit(session.json.cdp_ws_url, `${site.url}/`)).toBe('worker done');
      const through = proxy.seen.map((request) => request.target);
      for (const path of ['/', '/pixel.png', '/worker.js', '/from-worker'])
        expect(through).toContain(`${site.url}${path}`);
      // A download goes through it too.
      const browser = await chromium.connectOverCDP(session.json.cdp_ws_url);
      await browser
        .contexts()[0]
        ?.pages()[0]
        ?.goto(`${site.url}/download`)
        .catch(() => undefined);
      await browser.close();
      await expect
        .poll(() => proxy.seen.map((request) => request.target), { timeout: 10_000 })
        .toContain(`${site.url}/download`);
      // localhost is in bypass_hosts: the browser reaches it directly.
      const before = proxy.seen.length;
      expect(await visit(session.json.cdp_ws_url, `http://localhost:${site.port}/`)).toBe(
        'worker done',
      );
      expect(
        proxy.seen.slice(before).filter((request) => request.target.includes('localhost')),
      ).toEqual([]);
      expect(site.requests.some((request) => request.host === `localhost:${site.port}`)).toBe(true);
      await call('DELETE', `/browsers/${session.json.session_id}`);
    } finally {
      await proxy.close();
    }
  });

  it('answer the proxy for the browser, the password never leaving the server', async () => {
    const proxy = await startTestProxy({ username: 'agent', password: PASSWORD });
    try {
      const record = await createProxy(proxy.port, { username: 'agent', password: PASSWORD });
      expect(JSON.stringify(record)).not.toContain(PASSWORD);
      const session = await call<BrowserSession>('POST', '/browsers', { proxy_id: record.id });
      expect(await visit(session.json.cdp_ws_url, `${site.url}/`)).toBe('worker done');
      expect(proxy.seen.length).toBeGreaterThan(0);
      expect(proxy.seen.every((request) => request.authorization?.startsWith('Basic '))).toBe(true);
      const checked = (await call<BrowserProxy>('POST', `/proxies/${record.id}/check`)).json;
      expect(checked).toMatchObject({ status: 'available', ip_address: '127.0.0.1' });
      // Not in any answer, not in the data directory, not on the browser's command line.
      expect(JSON.stringify((await call('GET', '/proxies?limit=100')).json)).not.toContain(
        PASSWORD,
      );
      const grep = await run('grep', ['-rlaF', PASSWORD, handle.dataDir]).catch(
        (error: { code: number; stdout: string }) => error,
      );
      expect(grep.stdout).toBe('');
      const { user } = handle.server.instance(session.json.session_id);
      const lines = processesOfUser(user?.uid ?? -1).map((process) => process.commandLine);
      expect(lines.some((line) => /--proxy-server=http:\/\/10\.[\d.]+:\d+/.test(line))).toBe(true);
      expect(lines.some((line) => line.includes(PASSWORD))).toBe(false);
      await call('DELETE', `/browsers/${session.json.session_id}`);
    } finally {
      await proxy.close();
    }
  });

  it("serve one browser only: another session cannot ride on its proxy's credentials", async () => {
    const proxy = await startTestProxy({ username: 'agent', password: PASSWORD });
    try {
      const record = await createProxy(proxy.port, { username: 'agent', password: PASSWORD });
      const owner = await call<BrowserSession>('POST', '/browsers', { proxy_id: record.id });
      const { user } = handle.server.instance(owner.json.session_id);
      const relay = processesOfUser(user?.uid ?? -1)
        .map((process) => /--proxy-server=(\S+?)\0/.exec(process.commandLine)?.[1])
        .find(Boolean);
      // At its own gateway, which no other session can reach.
      expect(relay).toMatch(/^http:\/\/10\.\d+\.\d+\.\d+:\d+$/);
      const intruder = await call<BrowserSession>('POST', '/browsers', {});
      const browser = await chromium.connectOverCDP(intruder.json.cdp_ws_url);
      const seen = proxy.seen.length;
      try {
        // DevTools lets a session give a new context any proxy: the relay refuses it.
        const context = await browser.newContext({ proxy: { server: relay as string } });
        const page = await context.newPage();
        const failure = await page
          .goto(`${site.url}/`, { timeout: 10_000 })
          .then(() => undefined)
          .catch((error: Error) => error.message);
        expect(failure).toMatch(/net::ERR_/);
      } finally {
        await browser.close();
      }
      // Nothing the intruder asked for reached the proxy. (The owner's Chromium makes requests
      // of its own through it meanwhile, such as accounts.google.com: those are the owner's.)
      expect(
        proxy.seen.slice(seen).filter((request) => request.target.startsWith(site.url)),
      ).toEqual([]);
      // The owner goes through it still.
      expect(await visit(owner.json.cdp_ws_url, `${site.url}/`)).toBe('worker done');
      await call('DELETE', `/browsers/${owner.json.session_id}`);
      await call('DELETE', `/browsers/${intruder.json.session_id}`);
    } finally {
      await proxy.close();
    }
  });

  it("show the browser's own error for a bad password or a dead proxy, and check says unavailable", async () => {
    const proxy = await startTestProxy({ username: 'agent', password: PASSWORD });
    const dead = await startTestProxy();
    const deadPort = dead.port;
    await dead.close();
    try {
      for (const record of [
        await createProxy(proxy.port, { username: 'agent', password: 'wrong' }),
        await createProxy(deadPort),
      ]) {
        const session = await call<BrowserSession>('POST', '/browsers', { proxy_id: record.id });
        expect(await failedVisit(session.json.cdp_ws_url, `${site.url}/`)).toMatch(/net::ERR_/);
        // The session stays usable: a bypass host loads, and the API answers.
        expect(await visit(session.json.cdp_ws_url, `http://localhost:${site.port}/`)).toBe(
          'worker done',
        );
        expect((await call('GET', `/browsers/${session.json.session_id}`)).status).toBe(200);
        const checked = (await call<BrowserProxy>('POST', `/proxies/${record.id}/check`)).json;
        expect(checked.status).toBe('unavailable');
        expect(checked.ip_address).toBeUndefined();
        await call('DELETE', `/browsers/${session.json.session_id}`);
      }
    } finally {
      await proxy.close();
    }
  });
});
