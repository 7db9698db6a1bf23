import Kernel from '@onkernel/sdk';
import type { BrowserSession } from '@x/types';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { processesOfServer } from '../test-support/processes.js';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const handle = useTestServer();
const call = jsonCaller(() => handle.server.url);

/** A raw BiDi client: sends commands by id and waits for their answers; keeps the events. */
async function bidiClient(url: string) {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  const events: Record<string, unknown>[] = [];
  let nextId = 1;
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    if (message.type === 'event') events.push(message);
    const answer = waiting.get(message.id as number);
    waiting.delete(message.id as number);
    answer?.(message);
  });
  return {
    socket,
    events,
    send(method: string, params: Record<string, unknown> = {}) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    },
    sendRaw(text: string) {
      socket.send(text);
      return new Promise<Record<string, unknown>>((resolve) =>
        socket.once('message', (data) => resolve(JSON.parse(data.toString()))),
      );
    },
    close() {
      socket.close();
    },
  };
}

describe('webdriver_ws_url on real Chromium', () => {
  it('speaks WebDriver BiDi: a session, navigation, script, input, on the page Playwright sees', async () => {
    const { json: session } = await call<BrowserSession>('POST', '/browsers', {});
    expect(session.webdriver_ws_url).toMatch(
      new RegExp(`^ws://.+/browsers/${session.session_id}/webdriver/session\\?jwt=`),
    );
    const bidi = await bidiClient(session.webdriver_ws_url as string);
    const created = await bidi.send('session.new', { capabilities: {} });
    expect(created).toMatchObject({
      type: 'success',
      result: { capabilities: { browserName: expect.any(String) } },
    });
    const tree = await bidi.send('browsingContext.getTree', {});
    const contexts = (tree.result as { contexts: { context: string }[] }).contexts;
    expect(contexts.length).toBeGreaterThan(0);
    const context = contexts[0]?.context;
    await bidi.send('session.subscribe', { events: ['log.entryAdded'] });
    const page = `data:text/html,<button onclick="document.title='clicked'" style="position:absolute;left:0;top:0;width:200px;height:100px">go</button><script>console.log('hello bidi')</script>`;
    const navigated = await bidi.send('browsingContext.navigate', {
      context,
      url: page,
      wait: 'complete',
    });
    expect(navigated).toMatchObject({ type: 'success' });
    const evaluated = await bidi.send('script.evaluate', {
      expression: '6 * 7',
      target: { context },
      awaitPromise: false,
    });
    expect(evaluated).toMatchObject({
      type: 'success',
      result: { result: { type: 'number', value: 42 } },
    });
    const clicked = await bidi.send('input.performActions', {
      context,
      actions: [
        {
          type: 'pointer',
          id: 'mouse',
          actions: [
            { type: 'pointerMove', x: 50, y: 50 },
            { type: 'pointerDown', button: 0 },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ],
    });
    expect(clicked).toMatchObject({ type: 'success' });
    expect(bidi.events.some((event) => JSON.stringify(event).includes('hello bidi'))).toBe(true);
    // The same page through the CDP URL: Playwright sees what BiDi did.
    const playwright = await chromium.connectOverCDP(session.cdp_ws_url);
    try {
      const pages = playwright.contexts()[0]?.pages() ?? [];
      const titles = await Promise.all(pages.map((one) => one.title()));
      expect(titles).toContain('clicked');
    } finally {
      await playwright.close();
    }
    // Not a command: answered with an error, and the connection goes on.
    expect(await bidi.sendRaw('not json')).toMatchObject({
      type: 'error',
      error: 'invalid argument',
    });
    expect(
      await bidi.send('script.evaluate', {
        expression: '1',
        target: { context },
        awaitPromise: false,
      }),
    ).toMatchObject({ type: 'success' });
    bidi.close();
    await call('DELETE', `/browsers/${session.session_id}`);
  });

  it('refuses another session’s jwt and a missing one, and ends the connection with its browser', async () => {
    const { json: mine } = await call<BrowserSession>('POST', '/browsers', {});
    const { json: other } = await call<BrowserSession>('POST', '/browsers', {});
    const otherJwt = new URL(other.webdriver_ws_url as string).searchParams.get('jwt');
    const forged = new URL(mine.webdriver_ws_url as string);
    forged.searchParams.set('jwt', otherJwt ?? '');
    for (const url of [forged.href, forged.href.replace(/\?.*$/, '')]) {
      const refused = await new Promise<number>((resolve) => {
        const socket = new WebSocket(url);
        socket.once('unexpected-response', (_request, response) =>
          resolve(response.statusCode ?? 0),
        );
        socket.once('open', () => resolve(101));
        socket.once('error', () => undefined);
      });
      expect(refused).toBe(401);
    }
    const bidi = await bidiClient(mine.webdriver_ws_url as string);
    await bidi.send('session.new', { capabilities: {} });
    const mappers = () =>
      processesOfServer(handle.dataDir).filter((process) =>
        process.commandLine.includes('bidi-worker'),
      );
    expect(mappers().length).toBeGreaterThan(0);
    const closed = new Promise<number>((resolve) =>
      bidi.socket.once('close', (code) => resolve(code)),
    );
    await call('DELETE', `/browsers/${mine.session_id}`);
    expect(await closed).toBe(1001);
    // Its mapper ended with it: no process of it is left.
    await expect.poll(() => mappers().length, { timeout: 10_000 }).toBe(0);
    await call('DELETE', `/browsers/${other.session_id}`);
  });

  it('is driven by a real BiDi client (Puppeteer over WebDriver BiDi) on a browser the Kernel SDK 0.84 made', async () => {
    const sdk = new Kernel({ apiKey: TEST_TOKEN, baseURL: handle.server.url, maxRetries: 0 });
    const created = await sdk.browsers.create({});
    expect(created.webdriver_ws_url).toContain(
      `/browsers/${created.session_id}/webdriver/session?jwt=`,
    );
    const browser = await puppeteer.connect({
      browserWSEndpoint: created.webdriver_ws_url,
      protocol: 'webDriverBiDi',
    });
    try {
      const page = (await browser.pages())[0] ?? (await browser.newPage());
      await page.goto(
        'data:text/html,<input id="box"><button onclick="document.title=document.getElementById(\'box\').value">save</button>',
      );
      await page.type('#box', 'typed over BiDi');
      await page.click('button');
      expect(await page.evaluate(() => document.title)).toBe('typed over BiDi');
      // Playwright on cdp_ws_url sees the same page.
      const playwright = await chromium.connectOverCDP(created.cdp_ws_url);
      try {
        const titles = await Promise.all(
          (playwright.contexts()[0]?.pages() ?? []).map((one) => one.title()),
        );
        expect(titles).toContain('typed over BiDi');
      } finally {
        await playwright.close();
      }
    } finally {
      await browser.disconnect();
    }
    await sdk.browsers.deleteByID(created.session_id);
  });

  it('bounds the connections of a browser, frees a place when one closes, and takes text only', async () => {
    const { json: session } = await call<BrowserSession>('POST', '/browsers', {});
    const url = session.webdriver_ws_url as string;
    const clients = await Promise.all([1, 2, 3, 4].map(() => bidiClient(url)));
    await Promise.all(clients.map((client) => client.send('session.new', { capabilities: {} })));
    const statusOf = (target: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(target);
        socket.once('unexpected-response', (_request, response) =>
          resolve(response.statusCode ?? 0),
        );
        socket.once('open', () => {
          socket.close();
          resolve(101);
        });
        socket.once('error', () => undefined);
      });
    expect(await statusOf(url)).toBe(429);
    // A binary frame is no BiDi message: that connection is closed, its place freed.
    const first = clients[0];
    const closed = new Promise<number>((resolve) =>
      first?.socket.once('close', (code) => resolve(code)),
    );
    first?.socket.send(Buffer.from([1, 2, 3]));
    expect(await closed).toBe(1003);
    let status = 429;
    for (let attempt = 0; attempt < 50 && status === 429; attempt++) {
      status = await statusOf(url);
      if (status === 429) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(101);
    for (const client of clients.slice(1)) client.close();
    await call('DELETE', `/browsers/${session.session_id}`);
  });
});
