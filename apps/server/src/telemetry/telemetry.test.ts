import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Kernel from '@onkernel/sdk';
import type { BrowserSession, TelemetryEnvelope } from '@x/types';
import { TELEMETRY_RETAINED_EVENTS } from '@x/types';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../test-support/event-stream.js';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const handle = useTestServer();
const call = jsonCaller(() => handle.server.url);
let site = '';
/** A port nothing listens on: a request to it fails. */
let closedPort = 0;

const pages = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  response.setHeader('content-type', 'text/html');
  if (path === '/console') {
    response.end(`<script>
      console.log('hello from the page', 42, {a: 1});
      console.warn('careful');
      console.error('it broke');
      fetch('http://127.0.0.1:${closedPort}/nothing').catch(() => {});
      setTimeout(() => { throw new Error('boom'); }, 0);
    </script>`);
  } else if (path === '/flood') {
    // Far more console messages than a session keeps, and one far longer than an event holds.
    response.end(`<script>
      for (let i = 0; i < 5000; i++) console.log('flood ' + i);
      console.log('x'.repeat(2 * 1024 * 1024));
      console.log('after the flood');
    </script>`);
  } else {
    response.end('<p>plain</p>');
  }
});

beforeAll(async () => {
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  site = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(() => {
  pages.closeAllConnections();
  pages.close();
});

const WATCH_PAGES = {
  browser: { console: { enabled: true }, network: { enabled: true }, page: { enabled: true } },
};

async function createBrowser(telemetry?: unknown): Promise<BrowserSession> {
  const answer = await call<BrowserSession>(
    'POST',
    '/browsers',
    telemetry === undefined ? {} : { telemetry },
  );
  expect(answer.status).toBe(201);
  return answer.json;
}

async function events(id: string, query = ''): Promise<TelemetryEnvelope[]> {
  const answer = await call<TelemetryEnvelope[]>(
    'GET',
    `/browsers/${id}/telemetry/events?limit=100${query}`,
  );
  expect(answer.status).toBe(200);
  return answer.json;
}

/** Waits until the session's events (from its first page) hold one `matches` accepts. */
async function eventually(id: string, matches: (envelope: TelemetryEnvelope) => boolean) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const found = (await events(id, '&order=desc')).find(matches);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the event never came');
}

/** Reads a telemetry stream until `count` envelopes came; gives them and their frames' ids. */
async function readStream(
  id: string,
  count: number,
  init: { query?: string; lastEventId?: string } = {},
): Promise<{ envelopes: TelemetryEnvelope[]; ids: (string | undefined)[] }> {
  const stream = await openEventStream(
    `${handle.server.url}/browsers/${id}/telemetry/stream${init.query ?? ''}`,
    init.lastEventId === undefined ? {} : { 'last-event-id': init.lastEventId },
  );
  expect(stream.status).toBe(200);
  expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
  const envelopes: TelemetryEnvelope[] = [];
  const ids: (string | undefined)[] = [];
  try {
    while (envelopes.length < count) {
      const frame = await stream.next();
      if (!frame) break;
      expect(frame.event).toBeUndefined();
      envelopes.push(JSON.parse(frame.data) as TelemetryEnvelope);
      ids.push(frame.id);
    }
  } finally {
    stream.close();
  }
  return { envelopes, ids };
}

describe('telemetry of a real browser', () => {
  let browser: Browser | undefined;
  afterAll(() => browser?.close());

  it('sees console messages, an uncaught exception, a failed request and the page loading', async () => {
    const session = await createBrowser(WATCH_PAGES);
    expect(session.telemetry?.browser).toMatchObject({
      console: { enabled: true },
      control: { enabled: true },
      interaction: { enabled: false },
    });
    browser = await chromium.connectOverCDP(session.cdp_ws_url);
    const page = browser.contexts()[0]?.pages()[0];
    await page?.goto(`${site}/console`);

    const log = await eventually(
      id(session),
      ({ event }) => event.type === 'console_log' && event.data?.text === 'hello from the page',
    );
    expect(log.event).toMatchObject({
      category: 'console',
      source: { kind: 'cdp', event: 'Runtime.consoleAPICalled' },
      data: {
        args: ['hello from the page', '42', 'Object'],
        level: 'log',
        target_type: 'page',
        url: `${site}/console`,
      },
    });
    expect(log.event.ts).toBeGreaterThan((Date.now() - 60_000) * 1000);
    await eventually(
      id(session),
      ({ event }) => event.type === 'console_log' && event.data?.level === 'warning',
    );
    await eventually(
      id(session),
      ({ event }) => event.type === 'console_error' && event.data?.text === 'it broke',
    );
    const thrown = await eventually(
      id(session),
      ({ event }) => event.source.event === 'Runtime.exceptionThrown',
    );
    expect(thrown.event.data?.text).toBe('Uncaught Error: boom');
    const failed = await eventually(
      id(session),
      ({ event }) => event.type === 'network_loading_failed',
    );
    expect(failed.event.data).toMatchObject({
      url: `http://127.0.0.1:${closedPort}/nothing`,
      error_text: expect.stringMatching(/^net::ERR_/),
    });
    const response = await eventually(
      id(session),
      ({ event }) => event.type === 'network_response' && event.data?.url === `${site}/console`,
    );
    expect(response.event.data).toMatchObject({
      status: 200,
      mime_type: 'text/html',
      method: 'GET',
    });
    await eventually(id(session), ({ event }) => event.type === 'page_load');
    await eventually(
      id(session),
      ({ event }) => event.type === 'page_navigation' && event.data?.url === `${site}/console`,
    );
    // The DevTools client is a connection of its own.
    await eventually(id(session), ({ event }) => event.type === 'cdp_connect');

    // Filters: by category, newest first, a window in time.
    const network = await events(id(session), '&category=network');
    expect(network.length).toBeGreaterThan(0);
    expect(network.every(({ event }) => event.category === 'network')).toBe(true);
    const repeated = await events(id(session), '&category=console&category=page');
    expect(new Set(repeated.map(({ event }) => event.category))).toEqual(
      new Set(['console', 'page']),
    );
    const all = await events(id(session));
    const seqs = all.map(({ seq }) => seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(
      await events(
        id(session),
        `&until=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
      ),
    ).toEqual([]);
    const bad = await call('GET', `/browsers/${id(session)}/telemetry/events?category=nonsense`);
    expect(bad.status).toBe(400);
    const backwards = await call(
      'GET',
      `/browsers/${id(session)}/telemetry/events?order=desc&since=5m`,
    );
    expect(backwards.status).toBe(400);
    await browser.close();
    browser = undefined;
  });

  it('a stream carries each event with its id, and goes on after Last-Event-ID', async () => {
    const session = await createBrowser(WATCH_PAGES);
    // Calls on the session's endpoints are control events.
    for (let index = 0; index < 3; index++)
      await call('POST', `/browsers/${id(session)}/computer/move_mouse`, { x: 10 + index, y: 10 });
    const first = await readStream(id(session), 2, { query: '?replay=all' });
    expect(first.ids).toEqual(first.envelopes.map(({ seq }) => String(seq)));
    expect(first.envelopes[0]?.event).toMatchObject({
      category: 'control',
      type: 'api_call',
      source: { kind: 'kernel_api' },
      data: { operation_id: 'browsers.computer.moveMouse', status: 204 },
    });
    // The stream was dropped after two events: the next connection goes on from the last id.
    const resumed = await readStream(id(session), 1, {
      query: '?replay=all',
      lastEventId: first.ids.at(-1),
    });
    expect(resumed.envelopes[0]?.seq).toBe(Number(first.ids.at(-1)) + 1);
    // A fresh connection sees only what comes after it.
    const fresh = readStream(id(session), 1);
    // Room for the connection to open before the call it must see.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await call('POST', `/browsers/${id(session)}/computer/move_mouse`, { x: 50, y: 50 });
    const after = await fresh;
    expect(after.envelopes[0]?.event.data).toMatchObject({
      operation_id: 'browsers.computer.moveMouse',
    });
    expect(after.envelopes[0]?.seq).toBeGreaterThan(resumed.envelopes[0]?.seq ?? 0);
  });

  it('a flood keeps the newest events, each one bounded, and the server answers on', async () => {
    const session = await createBrowser({ browser: { console: { enabled: true } } });
    const connected = await chromium.connectOverCDP(session.cdp_ws_url);
    try {
      await connected.contexts()[0]?.pages()[0]?.goto(`${site}/flood`);
      await eventually(id(session), ({ event }) => event.data?.text === 'after the flood');
    } finally {
      await connected.close();
    }
    const newest = await events(id(session), '&order=desc');
    const huge = newest.find(({ event }) => event.truncated === true);
    expect(huge).toBeDefined();
    expect(JSON.stringify(huge).length).toBeLessThan(16 * 1024);
    // Page after page back to the oldest kept: no more than a session keeps.
    let kept = 0;
    let offset = 0;
    for (;;) {
      // Fetched by hand: the page's headers say where the next one starts.
      const answer = await fetch(
        `${handle.server.url}/browsers/${id(session)}/telemetry/events?limit=100${offset ? `&offset=${offset}` : ''}`,
        { headers: { authorization: `Bearer ${TEST_TOKEN}` } },
      );
      kept += ((await answer.json()) as TelemetryEnvelope[]).length;
      const next = answer.headers.get('x-next-offset');
      if (answer.headers.get('x-has-more') !== 'true' || next === null) break;
      offset = Number(next);
    }
    expect(kept).toBe(TELEMETRY_RETAINED_EVENTS);
    expect((newest[0]?.seq ?? 0) - TELEMETRY_RETAINED_EVENTS).toBeGreaterThan(
      5000 - TELEMETRY_RETAINED_EVENTS,
    );
  });

  it('captures nothing unless asked, and 404s a session that never was', async () => {
    const session = await createBrowser();
    expect(session.telemetry).toBeUndefined();
    await call('POST', `/browsers/${id(session)}/computer/move_mouse`, { x: 1, y: 1 });
    expect(await events(id(session))).toEqual([]);
    expect((await call('GET', '/browsers/br_nothing/telemetry/events')).status).toBe(404);
    expect((await call('GET', '/browsers/br_nothing/telemetry/stream')).status).toBe(404);
    // An ended session's events went with it.
    await call('DELETE', `/browsers/${id(session)}`);
    expect(await events(id(session))).toEqual([]);
  });

  it('pools pass their telemetry to their browsers', async () => {
    const pool = await call<{ id: string; browser_pool_config: { telemetry?: unknown } }>(
      'POST',
      '/browser_pools',
      {
        size: 1,
        telemetry: { browser: { network: { enabled: true } } },
      },
    );
    expect(pool.status).toBe(201);
    expect(pool.json.browser_pool_config.telemetry).toMatchObject({
      browser: { network: { enabled: true }, console: { enabled: false } },
    });
    const acquired = await call<BrowserSession>(
      'POST',
      `/browser_pools/${pool.json.id}/acquire`,
      {},
    );
    expect(acquired.json.telemetry?.browser.network).toEqual({ enabled: true });
    const cleared = await call<{ browser_pool_config: { telemetry?: unknown } }>(
      'PATCH',
      `/browser_pools/${pool.json.id}`,
      { telemetry: null },
    );
    expect(cleared.json.browser_pool_config.telemetry).toBeUndefined();
    expect((await call('DELETE', `/browser_pools/${pool.json.id}?force=true`)).status).toBe(204);
  });
});

describe('the Kernel SDK', () => {
  it('pages through telemetry events and streams them through the session’s base_url', async () => {
    const sdk = new Kernel({ apiKey: TEST_TOKEN, baseURL: handle.server.url, maxRetries: 0 });
    const created = await sdk.browsers.create({
      telemetry: { browser: { console: { enabled: true } } },
    });
    expect(created.telemetry?.browser?.console?.enabled).toBe(true);
    await sdk.browsers.computer.moveMouse(created.session_id, { x: 5, y: 5 });
    await sdk.browsers.computer.moveMouse(created.session_id, { x: 6, y: 6 });
    const seen = [];
    for await (const envelope of sdk.browsers.telemetry.events(created.session_id, {
      category: ['control'],
      limit: 1,
    }))
      seen.push(envelope);
    expect(seen.map(({ event }) => event.type)).toEqual(['api_call', 'api_call']);
    // The SDK sends the stream to the session's base_url with its jwt, and no Authorization.
    const stream = await sdk.browsers.telemetry.stream(created.session_id, { replay: 'all' });
    const streamed = [];
    for await (const envelope of stream) {
      streamed.push(envelope);
      if (streamed.length === 2) break;
    }
    expect(streamed.map(({ seq }) => seq)).toEqual([1, 2]);
    await sdk.browsers.deleteByID(created.session_id);
  });
});

const id = (session: BrowserSession) => session.session_id;
