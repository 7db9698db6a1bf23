import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserSession } from '@x/types';
import pino from 'pino';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server.js';
import {
  type DetectorSite,
  type PageChecks,
  startDetectorSite,
} from '../test-support/bot-detectors.js';
import { jsonCaller, TEST_TOKEN, testConfig } from '../test-support/servers.js';

/**
 * `stealth: true` measured as a site measures it: FingerprintJS BotD and checks of our own, served
 * on loopback, on a session created over the API and driven by Playwright over CDP (which enables
 * domains of its own on every page), against a plain session of the same server.
 */
describe('stealth: what bot detectors see', () => {
  let site: DetectorSite;
  let server: RunningServer;
  const call = jsonCaller(() => server.url);
  const browsers: Browser[] = [];

  beforeAll(async () => {
    site = await startDetectorSite();
    server = await startServer(
      testConfig({
        XB_DATA_DIR: mkdtempSync(join(tmpdir(), 'xb-stealth-')),
        XB_PORT: '0',
        XB_TOKENS: TEST_TOKEN,
        XB_METRICS_PORT: '0',
        // The detectors' site, and only it, is open to the sessions.
        XB_ALLOW_NETWORKS: `127.0.0.1:${site.port}`,
      }),
      pino({ level: process.env.XB_TEST_LOG ?? 'silent' }),
    );
  });

  afterAll(async () => {
    await Promise.all(browsers.map((browser) => browser.close().catch(() => undefined)));
    await server?.close();
    await site?.close();
  });

  /** A session created as users do, connected over CDP; its first page. */
  async function session(body: object): Promise<{ session: BrowserSession; page: Page }> {
    const answer = await call<BrowserSession>('POST', '/browsers', body);
    expect(answer.status, JSON.stringify(answer.json)).toBe(201);
    const browser = await chromium.connectOverCDP(answer.json.cdp_ws_url);
    browsers.push(browser);
    const page = browser.contexts()[0]?.pages()[0];
    if (!page) throw new Error('The session has no page.');
    return { session: answer.json, page };
  }

  /** Opens the detectors' page in `page` and waits for their verdicts. */
  async function detect(page: Page): Promise<PageChecks> {
    await page.goto(site.url);
    return page.evaluate(
      () => (window as unknown as { detectorsDone: Promise<PageChecks> }).detectorsDone,
    );
  }

  const failed = (result: PageChecks) =>
    Object.entries(result.checks)
      .filter(([, check]) => !check.ok)
      .map(([name]) => name);

  it('calls a plain session a bot', async () => {
    const { page } = await session({});
    const result = await detect(page);
    expect(result.botd.bot, JSON.stringify(result.botd)).toBe(true);
    expect(result.botd.botKind).toBe('headless_chrome');
    expect(failed(result)).toEqual(expect.arrayContaining(['webdriver', 'user agent']));
    expect(site.headers.get('/')?.['user-agent']).toMatch(/HeadlessChrome/);
  });

  it('calls a stealth session human, in its first tab and in those opened later', async () => {
    const { session: created, page } = await session({ stealth: true });
    expect(created.stealth).toBe(true);
    const first = await detect(page);
    const requests = new Map(site.headers);
    // A tab the client opens later, and one the page opens, are as stealthy as the first.
    const second = await detect(await page.context().newPage());
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.evaluate((url) => window.open(url), site.url),
    ]);
    await popup.waitForLoadState();
    const third = await popup.evaluate(
      () => (window as unknown as { detectorsDone: Promise<PageChecks> }).detectorsDone,
    );
    const seen = JSON.stringify({ first, second, third }, null, 1);
    for (const result of [first, second]) {
      expect(result.botd, seen).toEqual({ bot: false, fired: [] });
      expect(failed(result), seen).toEqual([]);
    }
    // A popup that a DevTools client holds at its start (Playwright does, for every target)
    // has no chrome.app in any Chromium, stealthy or not: all else holds.
    expect(third.botd, seen).toEqual({ bot: false, fired: [] });
    expect(
      failed(third).filter((name) => name !== 'window.chrome'),
      seen,
    ).toEqual([]);

    // What the page's requests carry agrees with what its scripts read.
    const userAgent = first.checks['user agent']?.seen as string;
    // A worker's script is fetched without client hints, by any Chromium.
    expect(requests.get('/worker.js')?.['user-agent']).toBe(userAgent);
    for (const path of ['/', '/botd.js', '/checks.js']) {
      const headers = requests.get(path);
      expect(headers?.['user-agent'], path).toBe(userAgent);
      expect(headers?.['sec-ch-ua'], path).not.toMatch(/headless/i);
      expect(headers?.['sec-ch-ua'], path).toMatch(/"(Google Chrome|Chromium)";v="\d+"/);
      expect(headers?.['sec-ch-ua-mobile'], path).toBe('?0');
      expect(headers?.['sec-ch-ua-platform'], path).toBe('"Linux"');
    }
    const { language } = (first.checks.languages?.seen ?? {}) as { language?: string };
    expect(language).toMatch(/^[a-z]{2}/);
    expect(requests.get('/')?.['accept-language']).toMatch(new RegExp(`^${language}\\b`));
  });
});
