import { BadGatewayError, browserFetch, createClient } from '@x/client';
import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';

const fake = useFakeService({ listen: true });

describe('browserFetch', () => {
  it('is fetch as the browser makes the request: its cookies, any status, bytes, every header', async () => {
    const client = createClient({ baseUrl: fake.url, token: fake.tokens.token });
    const { session_id: id } = await client.browsers.create({});
    fake.scriptSite('https://shop.example', (request) => {
      if (request.url.endsWith('/login'))
        return {
          status: 303,
          headers: [
            ['set-cookie', 'sid=abc; Path=/'],
            ['set-cookie', 'theme=dark'],
          ],
          body: '',
        };
      if (request.url.endsWith('/image'))
        return {
          headers: [['content-type', 'image/png']],
          body: new Uint8Array([0, 255, 137, 80]),
        };
      if (request.url.endsWith('/missing')) return { status: 404, body: 'no such page' };
      return {
        headers: [['content-type', 'application/json']],
        body: JSON.stringify({
          cookie: request.headers.cookie,
          method: request.method,
          body: request.body,
          type: request.headers['content-type'],
        }),
      };
    });
    const fetchAs = browserFetch(client, id);
    const login = await fetchAs('https://shop.example/login', { method: 'POST' });
    expect(login.status).toBe(303);
    expect(login.headers.getSetCookie()).toEqual(['sid=abc; Path=/', 'theme=dark']);
    const echo = await fetchAs(new URL('https://shop.example/echo'), {
      method: 'POST',
      body: new URLSearchParams({ q: 'shoes' }),
    });
    expect(await echo.json()).toEqual({
      cookie: 'sid=abc; theme=dark',
      method: 'POST',
      body: 'q=shoes',
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
    });
    const image = await browserFetch(client.core, id)('https://shop.example/image');
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(new Uint8Array([0, 255, 137, 80]));
    const missing = await fetchAs('https://shop.example/missing');
    expect([missing.ok, missing.status, await missing.text()]).toEqual([
      false,
      404,
      'no such page',
    ]);
    const head = await fetchAs('https://shop.example/echo', { method: 'HEAD' });
    expect(head.body).toBeNull();
    await expect(fetchAs('https://nowhere.example/')).rejects.toBeInstanceOf(BadGatewayError);
  });
});
