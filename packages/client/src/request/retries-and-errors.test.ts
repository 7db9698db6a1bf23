import { describe, expect, it, vi } from 'vitest';
import { createClient } from '../client/create-client.js';
import {
  AbortError,
  ApiError,
  AuthenticationError,
  BadGatewayError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  GatewayTimeoutError,
  InputValidationError,
  InsufficientStorageError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  XError,
} from '../errors/index.js';
import { startRecordingServer, useRecordingServer } from '../test-support/recording-server.js';
import * as samples from '../test-support/samples.js';

const rig = useRecordingServer();

const errorJson = (code: string, message: string) => ({ code, message });

/** The error a call failed with, typed loosely so a test can read its fields. */
// biome-ignore lint/suspicious/noExplicitAny: tests read fields of several error classes
const caught = (error: unknown): any => error;

describe('construction', () => {
  it('fails at once without a token or with a bad base URL', () => {
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', token: '' })).toThrow(
      ConfigurationError,
    );
    expect(() => createClient({ baseUrl: 'not a url', token: 't' })).toThrow(
      /No valid baseUrl: not a url/,
    );
  });
});

describe('error statuses', () => {
  it.each([
    [400, 'bad_request', BadRequestError],
    [401, 'unauthorized', AuthenticationError],
    [403, 'forbidden', PermissionDeniedError],
    [404, 'not_found', NotFoundError],
    [409, 'conflict', ConflictError],
    [413, 'payload_too_large', PayloadTooLargeError],
    [422, 'idempotency_key_reused', UnprocessableEntityError],
    [429, 'rate_limited', RateLimitError],
    [500, 'internal_error', InternalServerError],
    [502, 'bad_gateway', BadGatewayError],
    [503, 'unavailable', ServiceUnavailableError],
    [504, 'gateway_timeout', GatewayTimeoutError],
    [507, 'insufficient_storage', InsufficientStorageError],
  ])('maps %i to its class with the body code and message', async (status, code, ErrorClass) => {
    rig.server.respond('GET', '/browser_pools/x', {
      status,
      json: {
        ...errorJson(code, `it went ${code}`),
        details: [{ code: 'invalid_input', message: 'x: bad' }],
      },
      headers: { 'x-request-id': 'req-err' },
    });
    const error = await rig.client.browserPools
      .get({ id_or_name: 'x' }, { maxRetries: 0 })
      .catch(caught);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(XError);
    expect(error).toMatchObject({
      status,
      code,
      requestId: 'req-err',
      details: [{ code: 'invalid_input', message: 'x: bad' }],
    });
    expect((error as Error).message).toContain(`it went ${code}`);
  });

  it('maps another 5xx to InternalServerError and 405 to ApiError', async () => {
    rig.server.respond('GET', '/browser_pools/x', { status: 599, body: 'Bad Gateway' });
    const bad = await rig.client.browserPools
      .get({ id_or_name: 'x' }, { maxRetries: 0 })
      .catch(caught);
    expect(bad).toBeInstanceOf(InternalServerError);
    expect(bad.code).toBe('http_error');
    expect(bad.message).toContain('Bad Gateway');
    rig.server.respond('GET', '/browser_pools/x', {
      status: 405,
      json: errorJson('method_not_allowed', 'no'),
    });
    const notAllowed = await rig.client.browserPools.get({ id_or_name: 'x' }).catch(caught);
    expect(notAllowed).toBeInstanceOf(ApiError);
    expect(notAllowed).not.toBeInstanceOf(InternalServerError);
    expect(notAllowed.code).toBe('method_not_allowed');
  });

  it('reads Retry-After on rate limits', async () => {
    rig.server.respond('GET', '/browser_pools/x', {
      status: 429,
      json: errorJson('rate_limited', 'slow down'),
      headers: { 'retry-after': '7' },
    });
    const error = await rig.client.browserPools
      .get({ id_or_name: 'x' }, { maxRetries: 0 })
      .catch(caught);
    expect(error.retryAfterSeconds).toBe(7);
  });

  it('keeps instanceof working across two copies of the package', async () => {
    vi.resetModules();
    const copy = (await import('../errors/index.js')) as typeof import('../errors/index.js');
    expect(copy.NotFoundError).not.toBe(NotFoundError);
    const foreign = new copy.NotFoundError({
      status: 404,
      body: errorJson('not_found', 'gone'),
      headers: new Headers(),
    });
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(ApiError);
    expect(NotFoundError.isInstance(foreign)).toBe(true);
    expect(ConflictError.isInstance(foreign)).toBe(false);
    expect(foreign).not.toBeInstanceOf(ConflictError);
  });

  it('keeps the kinds of a subclass that declares none of its own', () => {
    class GoneError extends NotFoundError {}
    const gone = new GoneError({
      status: 404,
      body: errorJson('not_found', 'gone'),
      headers: new Headers(),
    });
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toBeInstanceOf(XError);
  });
});

describe('validation', () => {
  it('rejects bad input before anything is sent, naming each field', async () => {
    const error = await rig.checkedClient.browsers.computer
      .type({ id: 'br_1', text: 'hi', delay: -1, speed: 3 } as never)
      .catch(caught);
    expect(error).toBeInstanceOf(InputValidationError);
    expect(error.details.map((detail: { message: string }) => detail.message).sort()).toEqual([
      'delay: must be >= 0',
      'speed: is not a known field',
    ]);
    expect(rig.server.calls).toHaveLength(0);
  });

  it('names the missing field of a required body', async () => {
    await expect(
      rig.checkedClient.browserPools.release({ id_or_name: 'p' } as never),
    ).rejects.toThrow(/session_id: is required/);
    expect(rig.server.calls).toHaveLength(0);
  });

  it('sends an empty object, not no body, when a required body has only optional fields', async () => {
    rig.server.respond('PATCH', '/browser_pools/p', { status: 200, json: samples.pool });
    await rig.client.browserPools.update({ id_or_name: 'p' });
    expect(rig.server.calls[0]?.body.toString()).toBe('{}');
    expect(rig.server.calls[0]?.headers['content-type']).toMatch(/^application\/json/);
  });

  it('rejects a missing or malformed path parameter', async () => {
    await expect(rig.checkedClient.browsers.get({} as never)).rejects.toThrow(/id: is required/);
    await expect(rig.checkedClient.browsers.get({ id: 'a/b' })).rejects.toBeInstanceOf(
      InputValidationError,
    );
    expect(rig.server.calls).toHaveLength(0);
  });

  it('turns a response that breaks the contract into a typed error', async () => {
    rig.server.respond('GET', '/browser_pools/x', { status: 200, json: { id: 'p' } });
    const error = await rig.checkedClient.browserPools.get({ id_or_name: 'x' }).catch(caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.details.map((detail: { message: string }) => detail.message).join('\n')).toMatch(
      /^body\.available_count: /m,
    );
    // The message alone names the call and what was wrong.
    expect(error.message).toMatch(
      /^browserPools\.get: the 200 answer of GET \/browser_pools\/\{id_or_name\} breaks the contract: body\.\w+: /,
    );
    expect(error.message).toMatch(/\(and \d+ more\)/);
    rig.server.respond('GET', '/browser_pools/x', { status: 200, body: '<html>' });
    await expect(rig.checkedClient.browserPools.get({ id_or_name: 'x' })).rejects.toThrow(
      /not JSON/,
    );
    rig.server.respond('GET', '/browser_pools/x', { status: 201, json: samples.pool });
    await expect(rig.checkedClient.browserPools.get({ id_or_name: 'x' })).rejects.toThrow(
      /unexpected status 201/,
    );
  });
});

describe('retries', () => {
  it('retries a GET on 500 twice by default, then succeeds', async () => {
    rig.server.respond(
      'GET',
      '/browser_pools/x',
      { status: 500, json: errorJson('internal_error', 'boom') },
      { status: 503, json: errorJson('unavailable', 'busy') },
      { status: 200, json: samples.pool },
    );
    await expect(rig.client.browserPools.get({ id_or_name: 'x' })).resolves.toEqual(samples.pool);
    expect(rig.server.calls).toHaveLength(3);
  });

  it('gives up after maxRetries, per client and per call', async () => {
    rig.server.respond('GET', '/browser_pools/x', {
      status: 503,
      json: errorJson('unavailable', 'busy'),
    });
    await expect(rig.client.browserPools.get({ id_or_name: 'x' })).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(rig.server.calls).toHaveLength(3);
    rig.server.reset();
    rig.server.respond('GET', '/browser_pools/x', {
      status: 503,
      json: errorJson('unavailable', 'busy'),
    });
    await expect(
      rig.client.browserPools.get({ id_or_name: 'x' }, { maxRetries: 0 }),
    ).rejects.toThrow();
    expect(rig.server.calls).toHaveLength(1);
    rig.server.reset();
    rig.server.respond('GET', '/browser_pools/x', {
      status: 503,
      json: errorJson('unavailable', 'busy'),
    });
    const once = createClient({ baseUrl: rig.server.url, token: 't', maxRetries: 1 });
    await expect(once.browserPools.get({ id_or_name: 'x' })).rejects.toThrow();
    expect(rig.server.calls).toHaveLength(2);
  });

  it('does not retry other 4xx', async () => {
    rig.server.respond('GET', '/browser_pools/x', {
      status: 404,
      json: errorJson('not_found', 'no'),
    });
    await expect(rig.client.browserPools.get({ id_or_name: 'x' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(rig.server.calls).toHaveLength(1);
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    rig.server.respond(
      'GET',
      '/browser_pools/x',
      { status: 429, json: errorJson('rate_limited', 'wait'), headers: { 'retry-after': '1' } },
      { status: 200, json: samples.pool },
    );
    let started = performance.now();
    await rig.client.browserPools.get({ id_or_name: 'x' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);

    rig.server.reset();
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    rig.server.respond(
      'GET',
      '/browser_pools/x',
      {
        status: 503,
        json: errorJson('unavailable', 'wait'),
        headers: { 'retry-after': inTwoSeconds },
      },
      { status: 200, json: samples.pool },
    );
    started = performance.now();
    await rig.client.browserPools.get({ id_or_name: 'x' });
    // An HTTP date has one-second resolution: the wait is at least a second.
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(rig.server.calls).toHaveLength(2);
  });

  it('backs off between attempts without a Retry-After', async () => {
    rig.server.respond(
      'GET',
      '/browser_pools/x',
      { status: 500, json: errorJson('internal_error', 'boom') },
      { status: 200, json: samples.pool },
    );
    await rig.client.browserPools.get({ id_or_name: 'x' });
    expect(rig.server.calls).toHaveLength(2);
  });

  it('retries an acting POST with the same idempotency key on every attempt', async () => {
    rig.server.respond(
      'POST',
      '/browsers/br_1/computer/type',
      { status: 503, json: errorJson('unavailable', 'busy') },
      { status: 502, body: 'bad gateway' },
      { status: 204 },
    );
    await rig.client.browsers.computer.type({ id: 'br_1', text: 'once' });
    expect(rig.server.calls).toHaveLength(3);
    const keys = rig.server.calls.map((call) => call.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('uses the caller’s own idempotency key, and a new one per call otherwise', async () => {
    rig.server.respond('POST', '/browsers', { status: 201, json: samples.session });
    await rig.client.browsers.create({}, { idempotencyKey: 'my-key-1' });
    await rig.client.browsers.create({});
    await rig.client.browsers.create({});
    const keys = rig.server.calls.map((call) => call.headers['idempotency-key']);
    expect(keys[0]).toBe('my-key-1');
    expect(keys[1]).not.toBe(keys[2]);
  });

  it('never retries a POST without an idempotency key, nor a PATCH', async () => {
    rig.server.respond('POST', '/browsers/br_1/computer/screenshot', {
      status: 503,
      json: errorJson('unavailable', 'busy'),
    });
    await expect(rig.client.browsers.computer.screenshot({ id: 'br_1' })).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(rig.server.calls).toHaveLength(1);
    expect(rig.server.calls[0]?.headers['idempotency-key']).toBeUndefined();
    rig.server.reset();
    rig.server.respond('PATCH', '/invocations/inv_1', {
      status: 503,
      json: errorJson('unavailable', 'busy'),
    });
    await expect(
      rig.client.invocations.update({ id: 'inv_1', status: 'failed' }),
    ).rejects.toThrow();
    expect(rig.server.calls).toHaveLength(1);
  });

  it('retries connection errors, then reports a ConnectionError', async () => {
    const closed = await startRecordingServer();
    const url = closed.url;
    await closed.close();
    const offline = createClient({ baseUrl: url, token: 't', maxRetries: 1 });
    const error = await offline.browsers.list().catch(caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      `browsers.list: could not reach GET ${url}/browsers (ECONNREFUSED).`,
    );
    expect(error).toMatchObject({ operation: 'browsers.list', method: 'GET' });
  });

  it('retries a dropped connection', async () => {
    rig.server.respond(
      'GET',
      '/browsers',
      (_call, response) => {
        response.socket?.destroy();
      },
      { status: 200, json: [] },
    );
    expect((await rig.client.browsers.list()).items).toEqual([]);
    expect(rig.server.calls).toHaveLength(2);
  });
});

describe('time-outs and abort', () => {
  it('times out an attempt, retries it, then reports a TimeoutError', async () => {
    rig.server.respond('GET', '/browsers', { status: 200, json: [], delayMs: 400 });
    const error = await rig.client.browsers
      .list(undefined, { timeout: 100, maxRetries: 1 })
      .catch(caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(rig.server.calls).toHaveLength(2);
    expect(error).toMatchObject({ operation: 'browsers.list', limit: 'timeout', limitMs: 100 });
    expect(error.message).toMatch(
      /^browsers\.list: GET http:\/\/127\.0\.0\.1:\d+\/browsers\S* got no answer in time \(timeout 100 ms, for an attempt\)\.$/,
    );
  });

  it('bounds the whole call with totalTimeout', async () => {
    rig.server.respond('GET', '/browsers', {
      status: 503,
      json: errorJson('unavailable', 'x'),
      headers: { 'retry-after': '5' },
    });
    const started = performance.now();
    const error = await rig.client.browsers.list(undefined, { totalTimeout: 300 }).catch(caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(error).toMatchObject({ limit: 'totalTimeout', limitMs: 300 });
    expect(error.message).toContain('(totalTimeout 300 ms, for the whole call)');
  });

  it('gives the server the time the catalog allows it (an acquire that waits)', async () => {
    rig.server.respond('POST', '/browser_pools/p/acquire', { status: 204, delayMs: 400 });
    await expect(
      rig.client.browserPools.acquire(
        { id_or_name: 'p', acquire_timeout_seconds: 1 },
        { timeout: 100 },
      ),
    ).resolves.toEqual({ status: 204, value: undefined });
  });

  it('aborts a call in flight and one aborted before it starts', async () => {
    rig.server.respond('GET', '/browsers', { status: 200, json: [], delayMs: 1000 });
    const controller = new AbortController();
    const pending = rig.client.browsers.list(undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    await expect(
      rig.client.browsers.list(undefined, { signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(AbortError);
  });
});

describe('logging', () => {
  it('reports requests and retries without the token', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (message: string, fields?: object) =>
        lines.push(`debug ${message} ${JSON.stringify(fields)}`),
      warn: (message: string, fields?: object) =>
        lines.push(`warn ${message} ${JSON.stringify(fields)}`),
    };
    const logged = createClient({ baseUrl: rig.server.url, token: 'secret-token', logger });
    rig.server.respond(
      'GET',
      '/browsers',
      { status: 500, json: errorJson('internal_error', 'x') },
      { status: 200, json: [] },
    );
    await logged.browsers.list();
    expect(lines.some((line) => line.startsWith('warn retrying'))).toBe(true);
    expect(lines.some((line) => line.includes('"status":200'))).toBe(true);
    expect(lines.join('\n')).not.toContain('secret-token');
  });
});

describe('a full disk', () => {
  it('is not retried: 507 answers at once', async () => {
    rig.server.respond('GET', '/browser_pools/x', {
      status: 507,
      json: errorJson('insufficient_storage', 'The server’s disk is full.'),
    });
    await expect(rig.client.browserPools.get({ id_or_name: 'x' })).rejects.toBeInstanceOf(
      InsufficientStorageError,
    );
    expect(rig.server.calls).toHaveLength(1);
  });
});
