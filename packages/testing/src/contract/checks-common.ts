import { API_VERSION, HEADERS, LIMITS, operations } from '@x/types';
import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser, createInvocation, deployContractApp, uniqueName } from './resources.js';
import { parseUrl } from './urls.js';

/** The rules every operation shares: auth, errors, headers, bodies, idempotency. */
export const commonChecks: readonly ContractCheck[] = defineChecks('common', {
  'a call without a token is 401 unauthorized': async (context) => {
    context.expectError(
      await context.call('GET', '/browsers', { token: null }),
      401,
      'unauthorized',
    );
  },
  'a call with an unknown token is 401 unauthorized': async (context) => {
    context.expectError(
      await context.call('GET', '/browsers', { token: 'not-a-token' }),
      401,
      'unauthorized',
    );
  },
  'a read-only token reads, and acting with it is 403 forbidden': async (context) => {
    const token = context.target.readOnlyToken;
    context.expectSuccess(await context.call('GET', '/browsers', { token }), 'browsers.list', 200);
    context.expectError(
      await context.call('POST', '/browsers', { token, json: {} }),
      403,
      'forbidden',
    );
    context.expectError(
      await context.call('POST', '/browser_pools', { token, json: { size: 1 } }),
      403,
      'forbidden',
    );
  },
  'a read-only token gets session URLs without their jwt: it cannot drive a browser': async (
    context,
  ) => {
    const token = context.target.readOnlyToken;
    const session = await createBrowser(context);
    const jwtOf = (url: string | undefined) =>
      url ? parseUrl(url)?.searchParams.get('jwt') : null;
    expect(jwtOf(session.cdp_ws_url), 'the creator gets no jwt in cdp_ws_url');
    const read = context.expectSuccess<{ cdp_ws_url: string }>(
      await context.call('GET', `/browsers/${session.session_id}`, { token }),
      'browsers.get',
      200,
    );
    const listed = context.expectSuccess<{ session_id: string; cdp_ws_url: string }[]>(
      await context.call('GET', '/browsers', { token }),
      'browsers.list',
      200,
    );
    const urls = [read.cdp_ws_url, ...listed.map((browser) => browser.cdp_ws_url)];
    expect(
      urls.every((url) => jwtOf(url) === null),
      `a read-only token received a jwt: ${urls.join(', ')}`,
    );
    const path = parseUrl(read.cdp_ws_url)?.pathname;
    expect(
      path === `/browsers/${session.session_id}/cdp`,
      `the read-only cdp_ws_url no longer names the session's endpoint: ${read.cdp_ws_url}`,
    );
  },
  'an unknown route is 404 with an Error body': async (context) => {
    context.expectError(await context.call('GET', '/no-such-thing'), 404, 'not_found');
  },
  'a known path with the wrong method is 405 with Allow': async (context) => {
    const answer = await context.call('PUT', '/browsers');
    context.expectError(answer, 405, 'method_not_allowed');
    const allow = answer.headers.get('allow') ?? '';
    expect(allow.includes('GET') && allow.includes('POST'), `PUT /browsers: Allow is "${allow}"`);
  },
  'X-Request-Id is echoed, or generated when absent': async (context) => {
    const echoed = await context.call('GET', '/browsers', {
      headers: { [HEADERS.requestId]: 'contract-req-1' },
    });
    expect(
      echoed.headers.get(HEADERS.requestId) === 'contract-req-1',
      'the caller’s X-Request-Id is not echoed',
    );
    const first = await context.call('GET', '/browsers');
    const second = await context.call('GET', '/no-such-thing');
    const ids = [first.headers.get(HEADERS.requestId), second.headers.get(HEADERS.requestId)];
    expect(
      ids[0] && ids[1] && ids[0] !== ids[1],
      `generated request ids are missing or equal: ${ids.join(', ')}`,
    );
  },
  'GET /openapi.json needs no token and lists every operation': async (context) => {
    const answer = await context.call('GET', '/openapi.json', { token: null });
    expect(answer.status === 200, `GET /openapi.json: ${answer.status}`);
    const document = answer.json as {
      openapi?: string;
      info?: { version?: string };
      paths?: Record<string, Record<string, { operationId?: string }>>;
    };
    expect(document.openapi?.startsWith('3.1'), 'the document is not OpenAPI 3.1');
    expect(document.info?.version === API_VERSION, `info.version is ${document.info?.version}`);
    const ids = new Set(
      Object.values(document.paths ?? {}).flatMap((path) =>
        Object.values(path).map((entry) => entry.operationId),
      ),
    );
    for (const operation of operations)
      expect(ids.has(operation.name), `the document lacks ${operation.name}`);
  },
  'an unknown body field is 400 naming the field': async (context) => {
    const answer = await context.call('POST', '/browsers', { json: { headles: true } });
    context.expectError(answer, 400, 'bad_request');
    const details =
      (answer.json as { details?: { code?: string; message?: string }[] }).details ?? [];
    expect(
      details.some(
        (detail) => detail.code === 'invalid_input' && detail.message?.includes('headles'),
      ),
      `the details do not name the field: ${answer.text}`,
    );
  },
  'a malformed JSON body is 400': async (context) => {
    const answer = await context.call('POST', '/browsers', {
      body: '{"headless":',
      headers: { 'content-type': 'application/json' },
    });
    context.expectError(answer, 400, 'bad_request');
  },
  'a JSON body nested however deep is 400, never a failure': async (context) => {
    for (const depth of [LIMITS.jsonDepth + 1, 200_000]) {
      const answer = await context.call('POST', '/browsers', {
        body: `{"viewport":${'['.repeat(depth)}${']'.repeat(depth)}}`,
        headers: { 'content-type': 'application/json' },
      });
      context.expectError(answer, 400, 'bad_request');
    }
  },
  'a body that is not JSON is 415': async (context) => {
    const answer = await context.call('POST', '/invocations', {
      body: 'action_name=x',
      headers: { 'content-type': 'text/plain' },
    });
    context.expectError(answer, 415, 'unsupported_media_type');
  },
  'a JSON body over 1 MiB is 413': async (context) => {
    const payload = 'x'.repeat(LIMITS.jsonBodyBytes + 1);
    const answer = await context.call('POST', '/invocations', {
      json: { action_name: 'a', app_name: 'b', payload },
    });
    context.expectError(answer, 413, 'payload_too_large');
  },
  'a repeated Idempotency-Key returns the first answer without doing the work again': async (
    context,
  ) => {
    const key = uniqueName('key');
    const app = await deployContractApp(context);
    const body = { action_name: 'echo', app_name: app.app, version: app.version, payload: '1' };
    const first = await context.call('POST', '/invocations', {
      json: body,
      headers: { [HEADERS.idempotencyKey]: key },
    });
    const created = context.expectSuccess<{ id: string }>(first, 'invocations.create', 200);
    const again = await context.call('POST', '/invocations', {
      json: body,
      headers: { [HEADERS.idempotencyKey]: key },
    });
    const repeated = context.expectSuccess<{ id: string }>(again, 'invocations.create', 200);
    expect(
      repeated.id === created.id,
      `the repeat created another invocation (${repeated.id} vs ${created.id})`,
    );
  },
  'an Idempotency-Key reused with another body is 422': async (context) => {
    const key = uniqueName('key');
    const headers = { [HEADERS.idempotencyKey]: key };
    const app = await deployContractApp(context);
    const echo = { app_name: app.app, version: app.version, action_name: 'echo' };
    context.expectSuccess(
      await context.call('POST', '/invocations', { json: { ...echo, payload: '1' }, headers }),
      'invocations.create',
      200,
    );
    const answer = await context.call('POST', '/invocations', {
      json: { ...echo, payload: '2' },
      headers,
    });
    context.expectError(answer, 422, 'idempotency_key_reused');
  },
  'an Idempotency-Key longer than 255 characters is 400': async (context) => {
    const answer = await context.call('POST', '/invocations', {
      json: { action_name: 'a', app_name: 'b' },
      headers: { [HEADERS.idempotencyKey]: 'k'.repeat(LIMITS.idempotencyKeyLength + 1) },
    });
    context.expectError(answer, 400, 'bad_request');
  },
  'an id with characters ids never have is 400': async (context) => {
    context.expectError(await context.call('GET', '/browsers/bad%20id!'), 400, 'bad_request');
  },
  'timestamps are UTC with milliseconds': async (context) => {
    const invocation = await createInvocation(context);
    expect(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(invocation.started_at),
      `started_at is ${invocation.started_at}`,
    );
    const session = await createBrowser(context);
    expect(session.created_at.endsWith('Z'), `created_at is ${session.created_at}`);
  },
});
