import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Kernel from '@onkernel/sdk';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const handle = useTestServer();
const call = jsonCaller(() => handle.server.url);

/** A loopback site (the test server opens 127.0.0.1 to sessions): `/start` and `/blocked`. */
let site: Server;
let origin = '';

beforeAll(async () => {
  site = createServer((request, response) =>
    response.end(`<title>${request.url === '/start' ? 'Start page' : 'Other'}</title>`),
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => site?.close());

describe('the Kernel SDK 0.84 create options on real Chromium', () => {
  it('opens start_url and applies chrome_policy, both echoed on the record', async () => {
    const kernel = new Kernel({ apiKey: TEST_TOKEN, baseURL: handle.server.url, maxRetries: 0 });
    const session = await kernel.browsers.create({
      start_url: `${origin}/start`,
      gpu: false,
      // The page's own address is blocked by the policy the browser starts with.
      chrome_policy: { URLBlocklist: [`${origin}/blocked`] },
    });
    try {
      expect(session.start_url).toBe(`${origin}/start`);
      expect(session.chrome_policy).toEqual({ URLBlocklist: [`${origin}/blocked`] });
      expect((await kernel.browsers.retrieve(session.session_id)).start_url).toBe(
        `${origin}/start`,
      );
      const browser = await chromium.connectOverCDP(session.cdp_ws_url);
      try {
        const page = browser.contexts()[0]?.pages()[0];
        await expect.poll(() => page?.title(), { timeout: 15_000 }).toBe('Start page');
        const blocked = await page?.goto(`${origin}/blocked`).then(
          () => 'loaded',
          (error: Error) => error.message,
        );
        expect(blocked).toMatch(/ERR_BLOCKED_BY_ADMINISTRATOR/);
        // The policy file is the server's, read-only in the sandbox: the session cannot change it.
        const written = await kernel.browsers.process.exec(session.session_id, {
          command: 'sh',
          args: ['-c', 'echo {} > /etc/chromium/policies/managed/session.json'],
        });
        expect(written.exit_code).not.toBe(0);
      } finally {
        await browser.close();
      }
    } finally {
      await kernel.browsers.deleteByID(session.session_id);
    }
  });

  it('refuses gpu: true, a policy the service sets itself, and a start_url that is not http', async () => {
    const gpu = await call<{ code: string; message: string }>('POST', '/browsers', { gpu: true });
    expect(gpu.status).toBe(400);
    expect(gpu.json.message).toMatch(/without a GPU/);
    const policy = await call<{ code: string; message: string; details: unknown }>(
      'POST',
      '/browsers',
      { chrome_policy: { ProxyMode: 'direct' } },
    );
    expect(policy.status).toBe(400);
    expect(JSON.stringify(policy.json)).toMatch(/ProxyMode.*the service sets itself/);
    const file = await call('POST', '/browsers', { start_url: 'file:///etc/passwd' });
    expect(file.status).toBe(400);
    expect(JSON.stringify(file.json)).toMatch(/http or https/);
  });
});
