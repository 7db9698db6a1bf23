import { readdirSync } from 'node:fs';
import { operations } from '@x/types';
import { describe, expect, it } from 'vitest';
import * as functions from '../areas/index.js';
import { definitionOf } from '../calls/define-call.js';
import { type RecordedCall, useRecordingServer } from '../test-support/recording-server.js';
import * as samples from '../test-support/samples.js';
import type { Client } from './create-client.js';
import { type MethodCase, noContent, ok } from './method-cases/method-case.js';

/** One realistic call of every operation in the catalog: each area's file of `method-cases/`. */
const CASES: Record<string, MethodCase> = {};
for (const file of readdirSync(new URL('./method-cases/', import.meta.url)).sort()) {
  if (!/^[a-z-]+\.ts$/.test(file) || file === 'method-case.ts') continue;
  const { cases } = (await import(`./method-cases/${file.replace(/\.ts$/, '.js')}`)) as {
    cases: Record<string, MethodCase>;
  };
  for (const [name, c] of Object.entries(cases)) {
    if (name in CASES) throw new Error(`${file}: ${name} has a case in another file too`);
    CASES[name] = c;
  }
}

/** Operations whose answers are not plain values; each has its own test file. */
const COVERED_ELSEWHERE = [
  'extensions.upload', // uploads.test.ts
  'browsers.loadExtensions', // uploads.test.ts
  'extensions.download', // binary.test.ts
  'profiles.download', // tests/integration/src/client-against-fake.test.ts
  'browsers.replays.download', // binary.test.ts
  'browsers.computer.screenshot', // binary.test.ts
  'browsers.process.output', // event-stream.test.ts
  'browsers.fs.watch.events', // event-stream.test.ts
  'browsers.logs.stream', // streams.test.ts
  'auth.connections.events', // streams.test.ts
  'deployments.create', // uploads.test.ts
  'deployments.events', // streams.test.ts
  'invocations.events', // streams.test.ts
  'browsers.telemetry.stream', // streams.test.ts
  'browsers.fs.readFile', // files.test.ts
  'browsers.fs.writeFile', // files.test.ts
  'browsers.fs.upload', // files.test.ts
  'browsers.fs.uploadZip', // files.test.ts
  'browsers.fs.downloadDirZip', // files.test.ts
];

/** The operation function of an operation, by its name in the catalog. */
function functionOf(name: string) {
  const call = functions.operationFunctions.find((fn) => definitionOf(fn)?.route.name === name);
  return call as unknown as (core: unknown, input?: unknown) => Promise<unknown>;
}

function methodOf(client: Client, name: string) {
  let target: unknown = client;
  for (const segment of name.split('.')) target = (target as Record<string, unknown>)[segment];
  return target as (input?: unknown) => Promise<unknown>;
}

describe('every client method, against a real server on loopback', () => {
  const rig = useRecordingServer();

  it('covers every operation of the catalog', () => {
    expect([...Object.keys(CASES), ...COVERED_ELSEWHERE].sort()).toEqual(
      operations.map((operation) => operation.name).sort(),
    );
  });

  it.each(Object.entries(CASES))(
    '%s sends the right request and reads the answer',
    async (name, c) => {
      rig.server.respond(c.method, c.url.split('?')[0] as string, c.respond);
      // Checked: the case's input and answer hold to the catalog too, not only the route.
      const result = await methodOf(rig.checkedClient, name)(c.input);
      const operation = operations.find((entry) => entry.name === name)!;
      // A list resolves to a page: its records, and no more after them here.
      if ('paginated' in operation) {
        expect(result).toMatchObject({ items: c.result, hasMore: false, nextOffset: undefined });
      } else expect(result).toEqual(c.result);
      expect(rig.server.calls).toHaveLength(1);
      const call = rig.server.calls[0]!;
      expect(call.method).toBe(c.method);
      expect(call.url).toBe(c.url);
      expect(call.headers.authorization).toBe('Bearer tok_test');
      if (c.body === undefined) {
        expect(call.body.byteLength).toBe(0);
      } else {
        expect(call.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(call.body.toString())).toEqual(c.body);
      }
      const carriesKey = operation.method === 'POST' && operation.access === 'write';
      expect(call.headers['idempotency-key'] !== undefined).toBe(carriesKey);
    },
  );

  it.each(Object.entries(CASES))(
    '%s: its unchecked operation function sends the same request and gives the same value',
    async (name, c) => {
      rig.server.respond(c.method, c.url.split('?')[0] as string, c.respond);
      await methodOf(rig.checkedClient, name)(c.input);
      const fromFunction = functionOf(name);
      // Unchecked: checks change neither the request nor the value.
      const result = await fromFunction(rig.client.core, c.input);
      const [method, call] = rig.server.calls as [RecordedCall, RecordedCall];
      expect(call.method).toBe(method.method);
      expect(call.url).toBe(method.url);
      expect(call.headers['content-type']).toBe(method.headers['content-type']);
      expect(call.body.toString()).toBe(method.body.toString());
      expect(call.headers['idempotency-key'] !== undefined).toBe(
        method.headers['idempotency-key'] !== undefined,
      );
      const operation = operations.find((entry) => entry.name === name)!;
      if ('paginated' in operation) expect(result).toMatchObject({ items: c.result });
      else expect(result).toEqual(c.result);
    },
  );

  it('tells a timed-out acquire (204) from an acquired browser', async () => {
    rig.server.respond('POST', '/browser_pools/checkout/acquire', noContent);
    await expect(rig.client.browserPools.acquire({ id_or_name: 'checkout' })).resolves.toEqual({
      status: 204,
      value: undefined,
    });
  });

  it('percent-encodes path parameters', async () => {
    rig.server.respond('GET', '/browser_pools/my.pool-1', ok(samples.pool));
    await rig.client.browserPools.get({ id_or_name: 'my.pool-1' });
    expect(rig.server.calls[0]?.url).toBe('/browser_pools/my.pool-1');
  });

  it('gives the status, headers and request id with withResponse()', async () => {
    rig.server.respond('GET', '/browsers/br_1', {
      status: 200,
      json: samples.session,
      headers: { 'x-request-id': 'req-abc' },
    });
    const { data, status, requestId, response } = await rig.client.browsers
      .get({ id: 'br_1' })
      .withResponse();
    expect(data).toEqual(samples.session);
    expect(status).toBe(200);
    expect(requestId).toBe('req-abc');
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('accepts a 200 with an empty body where the contract says 204 (client liberal)', async () => {
    rig.server.respond('DELETE', '/browsers/br_1', { status: 200, body: '' });
    await expect(rig.client.browsers.delete({ id: 'br_1' })).resolves.toBeUndefined();
  });

  it('tolerates unknown fields in a response', async () => {
    rig.server.respond('GET', '/browser_pools/checkout', ok({ ...samples.pool, region: 'eu' }));
    await expect(rig.client.browserPools.get({ id_or_name: 'checkout' })).resolves.toMatchObject({
      id: 'pool_1',
    });
  });
});
