import { ErrorSchema, HEADERS } from '@x/types';
import { is } from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../service-error.js';
import { authenticate, withoutSessionKeys } from './auth.js';
import { startCallRecord } from './call-record.js';
import { checkPathAndQuery, queryWithBody } from './check-call.js';
import { ownEndpoint } from './handle-request.js';
import { interceptAfter, interceptBefore } from './outcome.js';
import { invalid, jsonDepth, parseJson } from './request-body.js';
import { requestIdOf } from './request-id.js';
import { answerForError } from './responses.js';
import { routeCall } from './route.js';

/** The ServiceError a step throws, or a failure when it throws none. */
function thrownBy(step: () => unknown): ServiceError {
  try {
    step();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('the step threw nothing');
}

const newRecord = () =>
  startCallRecord(
    new Request('http://x.test/browsers?a=1', { headers: { 'x-one': '1' } }),
    new URL('http://x.test/browsers?a=1'),
    'req_1',
    new Date('2026-01-02T03:04:05Z'),
    new TextEncoder().encode('{"k":1}'),
  );

describe('requestIdOf', () => {
  const fresh = () => 'req_new';
  it('echoes a printable id the caller gave', () => {
    const headers = new Headers({ [HEADERS.requestId]: 'trace-42' });
    expect(requestIdOf(headers, fresh)).toBe('trace-42');
  });
  it('makes one when the caller gave none, or one unsafe to print or too long', () => {
    expect(requestIdOf(new Headers(), fresh)).toBe('req_new');
    expect(requestIdOf(new Headers({ [HEADERS.requestId]: 'a b' }), fresh)).toBe('req_new');
    expect(requestIdOf(new Headers({ [HEADERS.requestId]: 'x'.repeat(201) }), fresh)).toBe(
      'req_new',
    );
  });
});

describe('startCallRecord', () => {
  it('records the call as it arrived, nothing decided yet', () => {
    expect(newRecord()).toEqual({
      at: '2026-01-02T03:04:05.000Z',
      method: 'GET',
      path: '/browsers',
      query: { a: '1' },
      operation: undefined,
      headers: { 'x-one': '1' },
      body: '{"k":1}',
      status: undefined,
      requestId: 'req_1',
      fault: undefined,
    });
  });
});

describe('ownEndpoint', () => {
  it('serves the OpenAPI document and the health checks, to GET only', async () => {
    const document = { openapi: '3.1.0' };
    const body = () => new TextEncoder().encode(JSON.stringify(document));
    expect(await (await ownEndpoint('GET', '/openapi.json', body))?.json()).toEqual(document);
    for (const path of ['/healthz', '/livez']) {
      expect(await (await ownEndpoint('GET', path, body))?.json()).toEqual({ status: 'ok' });
    }
    expect(await ownEndpoint('POST', '/healthz', body)).toBeUndefined();
    expect(await ownEndpoint('GET', '/browsers', body)).toBeUndefined();
  });

  it('answers /readyz 200 when ready, 503 with every reason when not', async () => {
    const body = () => new Uint8Array();
    const ready = await ownEndpoint('GET', '/readyz', body, async () => []);
    expect([ready?.status, await ready?.json()]).toEqual([200, { status: 'ready' }]);
    const reasons = ['Chromium not found at /nope', 'the data directory is not writable'];
    const notReady = await ownEndpoint('GET', '/readyz', body, async () => reasons);
    expect([notReady?.status, await notReady?.json()]).toEqual([
      503,
      { status: 'not ready', reasons },
    ]);
  });
});

describe('routeCall', () => {
  it('finds the operation and decodes its path parameters', () => {
    const route = routeCall('GET', '/browsers/b%201');
    expect(route.operation.name).toBe('browsers.get');
    expect(route.params).toEqual({ id: 'b 1' });
  });
  it('answers 405 with Allow when the path takes other methods', () => {
    const error = thrownBy(() => routeCall('PUT', '/browsers'));
    expect(error.status).toBe(405);
    expect(error.headers.allow).toBe('POST, GET');
  });
  it('answers 404 naming the call when no operation has the path', () => {
    const error = thrownBy(() => routeCall('GET', '/nothing/here'));
    expect(error.status).toBe(404);
    expect(error.message).toBe('No operation at GET /nothing/here.');
  });
});

describe('interceptBefore / interceptAfter', () => {
  it('go on untouched without a fault', async () => {
    const record = newRecord();
    expect(await interceptBefore(undefined, record)).toBeUndefined();
    const response = new Response('ok');
    expect(interceptAfter(undefined, record, response)).toEqual({ kind: 'response', response });
    expect(record.fault).toBeUndefined();
  });
  it('drop before handling, or answer what was injected, and say so in the record', async () => {
    const dropped = newRecord();
    expect(await interceptBefore({ drop: 'before' }, dropped)).toEqual({ kind: 'drop' });
    expect(dropped.fault).toBe('drop');
    const injected = newRecord();
    const respond = new Response(null, { status: 503 });
    expect(await interceptBefore({ respond }, injected)).toEqual({
      kind: 'response',
      response: respond,
    });
    expect(injected.fault).toBe('error');
  });
  it('waits out latency, then lets the call through', async () => {
    const started = performance.now();
    expect(await interceptBefore({ latencyMs: 30 }, newRecord())).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
  it('lose the answer after the work, or cut it short', () => {
    const lost = newRecord();
    expect(interceptAfter({ drop: 'after' }, lost, new Response('x'))).toEqual({ kind: 'drop' });
    expect(lost.fault).toBe('drop');
    const cut = newRecord();
    const outcome = interceptAfter({ truncateAfter: 'half' }, cut, new Response('x'));
    expect(outcome).toMatchObject({ kind: 'response', truncateAfter: 'half' });
    expect(cut.fault).toBe('truncate');
  });
});

describe('authenticate', () => {
  const sets = { tokens: new Set(['full']), readOnlyTokens: new Set(['reader']) };
  const read = routeCall('GET', '/browsers').operation;
  const write = routeCall('POST', '/browsers').operation;
  const withToken = (token?: string) =>
    new Request('http://x.test/', {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  it('lets a full token do anything and a read-only token read', async () => {
    expect(await authenticate(sets, write, withToken('full'))).toMatchObject({
      token: 'full',
      isReadOnly: false,
      strategy: 'operator_token',
      project: undefined,
    });
    expect(await authenticate(sets, read, withToken('reader'))).toMatchObject({
      token: 'reader',
      isReadOnly: true,
    });
  });
  it('answers 401 for a missing or unknown token, 403 for a reader that acts', async () => {
    const rejected = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.fail('accepted'),
        (error: unknown) => error as ServiceError,
      );
    expect((await rejected(authenticate(sets, read, withToken()))).message).toBe(
      'Missing bearer token.',
    );
    expect((await rejected(authenticate(sets, read, withToken('guess')))).status).toBe(401);
    const forbidden = await rejected(authenticate(sets, write, withToken('reader')));
    expect(forbidden.status).toBe(403);
    expect(forbidden.message).toContain('browsers.create');
  });
  it('knows an API key by what the lookup grants, and refuses one it does not', async () => {
    const keys = async (token: string) =>
      token === 'xbk_good'
        ? { keyId: 'key_1', keyName: 'ci', project: 'proj_a', isReadOnly: true }
        : undefined;
    expect(await authenticate(sets, read, withToken('xbk_good'), keys)).toMatchObject({
      keyId: 'key_1',
      strategy: 'api_key',
      project: 'proj_a',
      isReadOnly: true,
    });
    await expect(authenticate(sets, write, withToken('xbk_good'), keys)).rejects.toMatchObject({
      status: 403,
    });
    await expect(authenticate(sets, read, withToken('xbk_bad'), keys)).rejects.toMatchObject({
      status: 401,
    });
  });
  it('takes the jwt out of every URL a read-only caller is shown', () => {
    expect(
      withoutSessionKeys({
        cdp_ws_url: 'ws://h/cdp?jwt=secret&x=1',
        nested: [{ live_url: 'http://h/live?jwt=s' }],
        name_url: 'not a url',
      }),
    ).toEqual({
      cdp_ws_url: 'ws://h/cdp?x=1',
      nested: [{ live_url: 'http://h/live' }],
      name_url: 'not a url',
    });
  });
});

describe('queryWithBody', () => {
  it('takes the query of an operation that accepts it as a body, the body winning', () => {
    const { operation, params } = routeCall('DELETE', '/browser_pools/p1');
    const { query } = checkPathAndQuery(operation, params, new URLSearchParams('force=true'));
    expect(queryWithBody(operation, query, undefined)).toEqual({ force: true });
    expect(queryWithBody(operation, query, {})).toEqual({ force: true });
    expect(queryWithBody(operation, query, { force: false })).toEqual({ force: false });
    expect(() => queryWithBody(operation, query, { force: 'yes' })).toThrow(ServiceError);
    expect(() => queryWithBody(operation, query, { other: 1 })).toThrow(ServiceError);
  });

  it('leaves other operations as they are', () => {
    const { operation, params } = routeCall('DELETE', '/browsers/b1');
    const { query } = checkPathAndQuery(operation, params, new URLSearchParams());
    expect(queryWithBody(operation, query, { anything: 1 })).toBe(query);
  });
});

describe('checkPathAndQuery', () => {
  it('applies defaults and names every field that is wrong', () => {
    const { operation, params } = routeCall('DELETE', '/browsers/b1');
    expect(checkPathAndQuery(operation, params, new URLSearchParams()).params).toEqual({
      id: 'b1',
    });
    const unknown = thrownBy(() =>
      checkPathAndQuery(
        routeCall('GET', '/browsers').operation,
        {},
        new URLSearchParams('bogus=1'),
      ),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body().details).toEqual([
      { code: 'invalid_input', message: 'query.bogus: is not a known field' },
    ]);
  });
});

describe('answerForError', () => {
  it('answers a ServiceError as it says, and hears of nothing', async () => {
    const onUnexpected = vi.fn();
    const response = answerForError(new ServiceError('conflict', 'Busy.'), onUnexpected);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 'conflict', message: 'Busy.' });
    expect(onUnexpected).not.toHaveBeenCalled();
  });
  it('reports anything else and answers a 500 that reveals nothing', async () => {
    const onUnexpected = vi.fn();
    const failure = new Error('database at /secret/path is gone');
    const response = answerForError(failure, onUnexpected);
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(is(ErrorSchema, body)).toBe(true);
    expect(JSON.stringify(body)).not.toContain('secret');
    expect(onUnexpected).toHaveBeenCalledWith(failure);
  });
  it('answers a host out of open files, processes or memory 503 with Retry-After, not 500', async () => {
    const failures = [
      Object.assign(new Error('open /data/x: too many open files'), { code: 'EMFILE' }),
      Object.assign(new Error('spawn bwrap EAGAIN'), { code: 'EAGAIN' }),
      new Error('accept ENFILE'),
    ];
    for (const failure of failures) {
      const onUnexpected = vi.fn();
      const response = answerForError(failure, onUnexpected);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(((await response.json()) as { code: string }).code).toBe('unavailable');
      expect(onUnexpected).toHaveBeenCalledWith(failure);
    }
  });
});

describe('jsonDepth', () => {
  it('counts nesting, not brackets inside strings', () => {
    expect(jsonDepth('{"a":[1,{"b":2}]}', 64)).toBe(3);
    expect(jsonDepth('{"a":"[[[{{{\\"[["}', 64)).toBe(1);
    expect(jsonDepth('1', 64)).toBe(0);
  });
  it('stops counting once past the limit', () => {
    expect(jsonDepth('['.repeat(1_000_000), 64)).toBe(65);
  });
});

describe('parseJson', () => {
  const operation = routeCall('POST', '/browsers').operation;
  const request = new Request('http://x.test/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
  });
  const parse = (text: string) =>
    thrownBy(() => parseJson(operation, request, new TextEncoder().encode(text)));
  it('refuses a body nested past the limit with a 400, however deep', () => {
    for (const depth of [65, 100_000]) {
      const error = parse(`{"x":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      expect(error.status).toBe(400);
      expect(error.body().details).toEqual([
        { code: 'invalid_input', message: 'body: nests deeper than 64 levels' },
      ]);
    }
  });
  it('names malformed JSON', () => {
    expect(parse('{"x":').message).toBe(
      'The request body is not valid JSON: body: Unexpected end of JSON input.',
    );
  });

  it('names the first fields a 400 is about in its message, and keeps the message short', () => {
    const detail = (message: string) => ({ code: 'invalid_input', message });
    expect(invalid('The request body is invalid.', [detail('body.a: is required')]).message).toBe(
      'The request body is invalid: body.a: is required.',
    );
    const many = ['a', 'b', 'c', 'd', 'e'].map((name) => detail(`body.${name}: is required`));
    expect(invalid('The request body is invalid.', many).message).toBe(
      'The request body is invalid: body.a: is required; body.b: is required; body.c: is required (and 2 more).',
    );
    const long = invalid('The request body is invalid.', [
      detail(`${'k'.repeat(5_000)}: is not a known field`),
    ]);
    expect(long.message.length).toBeLessThanOrEqual(600);
    expect(long.details).toHaveLength(1);
    // A cut never leaves half of a character.
    for (const pad of [0, 1]) {
      const emoji = invalid('The request body is invalid.', [
        detail(`${'k'.repeat(pad)}${'😀'.repeat(400)}: is not a known field`),
      ]);
      // A lone half would not survive a round trip through UTF-8.
      expect(Buffer.from(emoji.message).toString()).toBe(emoji.message);
    }
  });
});

describe('answerForError and a full disk', () => {
  it('answers 507 insufficient_storage for ENOSPC or a full SQLite, and reports it', async () => {
    for (const failure of [
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
      new Error('database or disk is full'),
    ]) {
      const onUnexpected = vi.fn();
      const response = answerForError(failure, onUnexpected);
      expect(response.status).toBe(507);
      expect(await response.json()).toMatchObject({ code: 'insufficient_storage' });
      expect(onUnexpected).toHaveBeenCalledWith(failure);
    }
  });
});
