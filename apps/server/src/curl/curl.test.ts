import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Kernel from '@onkernel/sdk';
import type { CurlResult, PlaywrightExecuteResult } from '@x/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const handle = useTestServer();
const call = jsonCaller(() => handle.server.url);
let browser: string;
let site = '';

/** What /echo saw of each request. */
interface Echo {
  method: string;
  headers: Record<string, string>;
  body: string;
}

const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (path === '/echo') {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          method: request.method,
          headers: request.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    } else if (path === '/page') {
      response.setHeader('content-type', 'text/html');
      response.end('<script>document.cookie = "from_page=yes; path=/"</script>');
    } else if (path === '/set') {
      response.setHeader('set-cookie', ['from_curl=1; Path=/', 'second=2; Path=/; HttpOnly']);
      response.end('set');
    } else if (path === '/moved') {
      response.writeHead(302, { location: '/echo' });
      response.end();
    } else if (path === '/missing') {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('no such thing');
    } else if (path === '/bytes') {
      response.setHeader('content-type', 'application/octet-stream');
      response.end(Buffer.from([0, 255, 1, 254]));
    } else if (path === '/huge') {
      response.setHeader('content-type', 'application/octet-stream');
      const piece = Buffer.alloc(1024 * 1024, 7);
      let sent = 0;
      const more = () => {
        while (sent < 64 && !response.destroyed) {
          sent++;
          if (!response.write(piece)) return void response.once('drain', more);
        }
        response.end();
      };
      more();
    } else if (path === '/slow') {
      // Never answers: the call times out.
    }
  });
});

const curl = (body: Record<string, unknown>, id = browser) =>
  call<CurlResult>('POST', `/browsers/${id}/curl`, body);

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('curl through the browser', () => {
  it('sends the method, headers and body given, over the browser’s own headers', async () => {
    const answer = await curl({
      url: `${site}/echo`,
      method: 'PUT',
      headers: { 'X-Custom': 'yes', 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(answer.status).toBe(200);
    const echo = JSON.parse(answer.json.body) as Echo;
    expect(echo.method).toBe('PUT');
    expect(echo.body).toBe('hello');
    expect(echo.headers['x-custom']).toBe('yes');
    expect(echo.headers['content-type']).toBe('text/plain');
    expect(echo.headers['user-agent']).toMatch(/Chrome\//);
    expect(answer.json.status).toBe(200);
    expect(answer.json.headers['content-type']).toEqual(['application/json']);
    expect(answer.json.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('sends the cookie a page set, and keeps the ones it receives', async () => {
    const visit = await call<PlaywrightExecuteResult>(
      'POST',
      `/browsers/${browser}/playwright/execute`,
      {
        code: `await page.goto(${JSON.stringify(`${site}/page`)}); return page.url();`,
      },
    );
    expect(visit.status).toBe(200);
    const echo = JSON.parse((await curl({ url: `${site}/echo` })).json.body) as Echo;
    expect(echo.headers.cookie).toContain('from_page=yes');

    const set = await curl({ url: `${site}/set` });
    expect(set.json.headers['set-cookie']).toEqual([
      'from_curl=1; Path=/',
      'second=2; Path=/; HttpOnly',
    ]);
    const cookies = await call<PlaywrightExecuteResult>(
      'POST',
      `/browsers/${browser}/playwright/execute`,
      { code: 'return (await context.cookies()).map((cookie) => cookie.name).sort();' },
    );
    expect(cookies.json.result).toEqual(['from_curl', 'from_page', 'second']);
    const again = JSON.parse((await curl({ url: `${site}/echo` })).json.body) as Echo;
    expect(again.headers.cookie).toContain('from_curl=1');
    expect(again.headers.cookie).toContain('second=2');
  });

  it('follows redirects, answers any status, and carries bytes as base64', async () => {
    const moved = await curl({ url: `${site}/moved` });
    expect(moved.json.status).toBe(200);
    expect((JSON.parse(moved.json.body) as Echo).method).toBe('GET');
    const missing = await curl({ url: `${site}/missing` });
    expect(missing.json).toMatchObject({ status: 404, body: 'no such thing' });
    const bytes = await curl({ url: `${site}/bytes`, response_encoding: 'base64' });
    expect(Buffer.from(bytes.json.body, 'base64')).toEqual(Buffer.from([0, 255, 1, 254]));
  });

  it('bounds the body, the time and what it may reach; the browser is untouched', async () => {
    const huge = await curl({ url: `${site}/huge` });
    expect(huge.status).toBe(502);
    expect(JSON.stringify(huge.json)).toMatch(/over 10485760 bytes/);
    const slow = await curl({ url: `${site}/slow`, timeout_ms: 500 });
    expect(slow.status).toBe(504);
    const refused = await curl({ url: 'http://127.0.0.2:9/' });
    expect(refused.status).toBe(502);
    expect((await curl({ url: 'ftp://example.com/' })).status).toBe(400);
    expect((await curl({ url: `${site}/echo`, method: 'TRACE' })).status).toBe(400);
    // No tab of curl's is left, and the session's page is the one it was on.
    const pages = await call<PlaywrightExecuteResult>(
      'POST',
      `/browsers/${browser}/playwright/execute`,
      { code: 'return { pages: context.pages().length, url: page.url() };' },
    );
    expect(pages.json.result).toEqual({ pages: 1, url: `${site}/page` });
  });

  it('takes the session’s own jwt in place of a token, and no other session’s', async () => {
    const other = (await call<{ session_id: string; cdp_ws_url: string }>('POST', '/browsers', {}))
      .json;
    const own = (await call<{ cdp_ws_url: string }>('GET', `/browsers/${browser}`)).json;
    const jwtOf = (url: string) => new URL(url).searchParams.get('jwt') as string;
    const post = (id: string, jwt: string) =>
      fetch(`${handle.server.url}/browsers/${id}/curl?jwt=${jwt}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${site}/echo` }),
      });
    expect((await post(browser, jwtOf(own.cdp_ws_url))).status).toBe(200);
    expect((await post(browser, jwtOf(other.cdp_ws_url))).status).toBe(401);
    expect((await post(browser, 'not-a-jwt')).status).toBe(401);
    // Only the calls SDKs send to a session's base_url take it.
    const read = await fetch(
      `${handle.server.url}/browsers/${browser}?jwt=${jwtOf(own.cdp_ws_url)}`,
    );
    expect(read.status).toBe(401);
    await call('DELETE', `/browsers/${other.session_id}`);
  });

  it('answers the Kernel SDK 0.84, sent to the session’s base_url with its jwt', async () => {
    const sdk = new Kernel({ apiKey: TEST_TOKEN, baseURL: handle.server.url, maxRetries: 0 });
    const created = await sdk.browsers.create({});
    const answer = await sdk.browsers.curl(created.session_id, {
      url: `${site}/echo`,
      method: 'POST',
      body: 'from the sdk',
    });
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as Echo).body).toBe('from the sdk');
    await sdk.browsers.deleteByID(created.session_id);
  });
});
