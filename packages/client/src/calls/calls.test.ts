import type { ServerResponse } from 'node:http';
import { operations } from '@x/types';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as functions from '../areas/index.js';
import { createCore } from '../client/core.js';
import { createClient } from '../client/create-client.js';
import { ResponseValidationError } from '../errors/validation-errors.js';
import { createCore as createNodeCore } from '../node/index.js';
import { type RecordedCall, useRecordingServer } from '../test-support/recording-server.js';
import * as samples from '../test-support/samples.js';
import { USER_AGENT } from '../version.js';

const rig = useRecordingServer();

/** A server-side list of `count` invocations, answered a page at a time as the service does. */
function pagedInvocations(count: number) {
  const all = Array.from({ length: count }, (_, index) => ({
    ...samples.invocation,
    id: `inv_${index}`,
  }));
  return (call: RecordedCall, response: ServerResponse) => {
    const query = new URL(call.url, 'http://x').searchParams;
    const offset = Number(query.get('offset') ?? 0);
    const limit = Number(query.get('limit') ?? 20);
    const page = all.slice(offset, offset + limit);
    const hasMore = offset + page.length < all.length;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-has-more': String(hasMore),
    };
    if (hasMore) headers['x-next-offset'] = String(offset + page.length);
    response.writeHead(200, headers).end(JSON.stringify(page));
  };
}

describe('lists', () => {
  it('await gives one page; for await walks every page, with the same filters', async () => {
    rig.server.respond('GET', '/invocations', pagedInvocations(7));
    const first = await rig.client.invocations.list({ limit: 3, app_name: 'shop' });
    expect(first.items.map((item) => item.id)).toEqual(['inv_0', 'inv_1', 'inv_2']);
    expect([first.hasMore, first.nextOffset]).toEqual([true, 3]);

    const ids: string[] = [];
    for await (const invocation of rig.client.invocations.list({ limit: 3, app_name: 'shop' })) {
      ids.push(invocation.id);
    }
    expect(ids).toEqual(['inv_0', 'inv_1', 'inv_2', 'inv_3', 'inv_4', 'inv_5', 'inv_6']);
    const urls = rig.server.calls.map((call) => call.url).slice(1);
    expect(urls).toEqual([
      '/invocations?limit=3&app_name=shop',
      '/invocations?offset=3&limit=3&app_name=shop',
      '/invocations?offset=6&limit=3&app_name=shop',
    ]);
  });

  it('nextPage() follows X-Next-Offset and gives undefined at the end', async () => {
    rig.server.respond('GET', '/invocations', pagedInvocations(3));
    const first = await rig.client.invocations.list({ limit: 2 });
    const second = await first.nextPage();
    expect(second?.items.map((item) => item.id)).toEqual(['inv_2']);
    expect(second?.hasMore).toBe(false);
    expect(await second?.nextPage()).toBeUndefined();
  });

  it('ends where X-Has-More is false or X-Next-Offset is absent', async () => {
    rig.server.respond('GET', '/extensions', {
      status: 200,
      json: [samples.extension],
      headers: { 'x-has-more': 'true' },
    });
    const page = await rig.client.extensions.list();
    expect([page.hasMore, page.nextOffset]).toEqual([false, undefined]);
    const all: unknown[] = [];
    for await (const extension of rig.client.extensions.list()) all.push(extension);
    expect(all).toEqual([samples.extension]);
    expect(rig.server.calls).toHaveLength(2);
  });

  it('refuses an X-Next-Offset that does not lead on, rather than loop for ever', async () => {
    for (const next of ['0', '-5', 'ten', '2.5']) {
      rig.server.respond('GET', '/extensions', {
        status: 200,
        json: [samples.extension],
        headers: { 'x-has-more': 'true', 'x-next-offset': next },
      });
      await expect(rig.client.extensions.list()).rejects.toBeInstanceOf(ResponseValidationError);
    }
  });

  it('stops fetching when the loop stops', async () => {
    rig.server.respond('GET', '/invocations', pagedInvocations(50));
    for await (const invocation of rig.client.invocations.list({ limit: 10 })) {
      if (invocation.id === 'inv_12') break;
    }
    expect(rig.server.calls).toHaveLength(2);
  });

  it('checks a list’s filters before sending', async () => {
    await expect(
      rig.checkedClient.browsers.list({ status: 'gone' as never, limit: 500 }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    expect(rig.server.calls).toHaveLength(0);
  });
});

describe('operation functions over a core', () => {
  it('are one per operation, and call the same way as the methods', async () => {
    expect(functions.operationFunctions).toHaveLength(operations.length);
    // Besides the functions, the areas export only their list.
    expect(Object.keys(functions)).toHaveLength(operations.length + 1);
    rig.server.respond('GET', '/browser_pools/checkout', { status: 200, json: samples.pool });
    const core = createCore({ baseUrl: rig.server.url, token: 'tok_test' });
    await expect(functions.getBrowserPool(core, { id_or_name: 'checkout' })).resolves.toEqual(
      samples.pool,
    );
    rig.server.respond('GET', '/invocations', pagedInvocations(4));
    const ids: string[] = [];
    for await (const invocation of functions.listInvocations(core, { limit: 3 })) {
      ids.push(invocation.id);
    }
    expect(ids).toHaveLength(4);
  });

  it('upload through their encoder and stream through their reader', async () => {
    rig.server.respond('POST', '/extensions', { status: 201, json: samples.extension });
    const core = createCore({ baseUrl: rig.server.url, token: 'tok_test' });
    await functions.uploadExtension(core, { file: new Blob(['zip']), name: 'adblock' });
    expect(rig.server.calls[0]?.headers['content-type']).toMatch(/^multipart\/form-data/);
    rig.server.respond('POST', '/browsers/br_1/computer/screenshot', {
      status: 200,
      body: 'png',
      headers: { 'content-type': 'image/png' },
    });
    const shot = await functions.screenshot(core, { id: 'br_1' });
    expect(new TextDecoder().decode(await shot.bytes())).toBe('png');
  });
});

describe('client options', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('sends User-Agent xb-client/<version>; a caller’s own header wins', async () => {
    rig.server.respond('GET', '/browser_pools/p', { status: 200, json: samples.pool });
    await rig.client.browserPools.get({ id_or_name: 'p' });
    expect(USER_AGENT).toMatch(/^xb-client\/\S+$/);
    expect(rig.server.calls[0]?.headers['user-agent']).toBe(USER_AGENT);
    const own = createClient({
      baseUrl: rig.server.url,
      token: 't',
      headers: { 'user-agent': 'shop-agent/2' },
    });
    await own.browserPools.get({ id_or_name: 'p' });
    expect(rig.server.calls[1]?.headers['user-agent']).toBe('shop-agent/2');
  });

  it('withOptions() makes a new client over the same settings, leaving the first as it was', async () => {
    rig.server.respond('GET', '/browser_pools/p', { status: 200, json: samples.pool });
    const traced = rig.client.withOptions({ headers: { 'x-trace': 'abc' } });
    await traced.browserPools.get({ id_or_name: 'p' });
    await rig.client.browserPools.get({ id_or_name: 'p' });
    expect(rig.server.calls[0]?.headers['x-trace']).toBe('abc');
    expect(rig.server.calls[0]?.headers.authorization).toBe('Bearer tok_test');
    expect(rig.server.calls[1]?.headers['x-trace']).toBeUndefined();
    expect(traced.core.options.baseUrl).toBe(rig.server.url);
  });

  it('logs at the level asked for, to console by default; XB_LOG sets it in Node', async () => {
    rig.server.respond('GET', '/browser_pools/p', { status: 200, json: samples.pool });
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    try {
      const quiet = createClient({ baseUrl: rig.server.url, token: 't', logLevel: 'warn' });
      await quiet.browserPools.get({ id_or_name: 'p' });
      expect(debug).not.toHaveBeenCalled();
      vi.stubEnv('XB_LOG', 'debug');
      const core = createNodeCore({ baseUrl: rig.server.url, token: 't' });
      await functions.getBrowserPool(core, { id_or_name: 'p' });
      expect(debug).toHaveBeenCalledWith('request', expect.objectContaining({ method: 'GET' }));
      vi.stubEnv('XB_LOG', 'loud');
      expect(() => createNodeCore({ baseUrl: rig.server.url, token: 't' })).toThrow(/XB_LOG/);
    } finally {
      debug.mockRestore();
    }
  });
});
