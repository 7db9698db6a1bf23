import type { BrowserProxy } from '@x/types';
import { describe, expect, it } from 'vitest';
import { startTestProxy } from '../test-support/http-proxy.js';
import { jsonCaller, useTestServer } from '../test-support/servers.js';

// The operator opens a public-looking network only: loopback stays closed to sessions, and so to
// what the server does for them (their proxy relay, a proxy check).
const closed = useTestServer({
  XB_ALLOW_NETWORKS: '203.0.113.0/24',
  XB_PROXY_CHECK_URL: 'http://203.0.113.9/ip',
});
const call = jsonCaller(() => closed.server.url);

async function proxyAt(host: string, port: number): Promise<BrowserProxy> {
  const created = await call<BrowserProxy>('POST', '/proxies', {
    type: 'custom',
    config: { host, port },
  });
  expect(created.status).toBe(201);
  return created.json;
}

describe('a proxy where sessions may not go', () => {
  it('is never reached by a check or a browser: unavailable, and 400 for the browser', async () => {
    const proxy = await startTestProxy();
    try {
      for (const host of ['127.0.0.1', 'localhost']) {
        const record = await proxyAt(host, proxy.port);
        const checked = (await call<BrowserProxy>('POST', `/proxies/${record.id}/check`)).json;
        expect(checked.status).toBe('unavailable');
        const created = await call<{ code: string; message: string }>('POST', '/browsers', {
          proxy_id: record.id,
        });
        expect(created.status).toBe(400);
        expect(created.json.message).toMatch(/in a range the egress policy blocks/);
      }
      // The metadata address and a private one: refused alike, never connected to.
      for (const host of ['169.254.169.254', '10.1.2.3']) {
        const record = await proxyAt(host, 80);
        const created = await call('POST', '/browsers', { proxy_id: record.id });
        expect(created.status).toBe(400);
      }
      expect(proxy.seen).toEqual([]);
      expect((await call<unknown[]>('GET', '/browsers')).json).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
