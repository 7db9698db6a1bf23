import type { BrowserSession } from '@x/types';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { jsonCaller } from './servers.js';

/** A session of the egress tests and its page, connected over CDP. */
export interface EgressSession {
  readonly session: BrowserSession;
  readonly page: Page;
}

/**
 * The two sessions every egress test drives: `closed` may reach nothing private
 * (`network.allow: []`), `open` all the operator opened. Their browsers go into `browsers`, for
 * the caller to close.
 */
export async function openEgressSessions(
  call: ReturnType<typeof jsonCaller>,
  browsers: Browser[],
): Promise<{ closed: EgressSession; open: EgressSession }> {
  const start = async (body: object): Promise<EgressSession> => {
    const answer = await call<BrowserSession>('POST', '/browsers', body);
    expect(answer.status, JSON.stringify(answer.json)).toBe(201);
    const browser = await chromium.connectOverCDP(answer.json.cdp_ws_url);
    browsers.push(browser);
    return { session: answer.json, page: browser.contexts()[0]?.pages()[0] as Page };
  };
  const closed = await start({ network: { allow: [] } });
  const open = await start({});
  return { closed, open };
}

/** Whether a page reaches `url`: loaded, or failed (how fast, and why, for a failed test). */
export async function visit(
  page: Page,
  url: string,
): Promise<{ loaded: boolean; ms: number; error?: string }> {
  const started = Date.now();
  try {
    await page.goto(url, { timeout: 15_000 });
    return { loaded: true, ms: Date.now() - started };
  } catch (error) {
    return { loaded: false, ms: Date.now() - started, error: String(error).split('\n')[0] };
  }
}
