import { ErrorSchema, type Operation, operations, pathParamNames } from '@x/types';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createFakeService } from './fake-service.js';

const unexpected: unknown[] = [];
const fake = createFakeService({ onUnexpectedError: (error) => unexpected.push(error) });

/** Any JSON value, nested a little: what a careless or hostile caller may send. */
const anyJson = fc.jsonValue({ maxDepth: 3 });

/** A path segment no resource has: an id of the right shape that was never made, or a bad one. */
const missingOrBadSegment = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/).map((id) => `zz_${id}`),
  // Not `.`, `..` or `%2e%2e`: URL parsers resolve them away before a request is sent.
  fc.constantFrom('a'.repeat(65), '%zz', '%00', 'é👋', 'sp%20ace', 'x!'),
);

/** What makes a call invalid; every strategy must get a 4xx. */
const strategies = [
  'unknown query parameter',
  'unknown body field',
  'malformed JSON',
  'wrong content type',
  'missing resource',
] as const;

/** One invalid call: an operation, a way to break it, and random data around it. */
const invalidCall = fc
  .record({
    operation: fc.constantFrom(...(operations as readonly Operation[])),
    strategy: fc.constantFrom(...strategies),
    segments: fc.array(missingOrBadSegment, { minLength: 4, maxLength: 4 }),
    body: fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 }),
    garbage: fc.string({ minLength: 1, maxLength: 40 }),
  })
  // "Missing resource" needs a path parameter; the others need a body where they break the body.
  .filter(({ operation, strategy }) => {
    if (strategy === 'missing resource') return pathParamNames(operation.path).length > 0;
    if (strategy === 'unknown query parameter') return true;
    return operation.method !== 'GET';
  });

type InvalidCall = typeof invalidCall extends fc.Arbitrary<infer T> ? T : never;

function request({ operation, strategy, segments, body, garbage }: InvalidCall) {
  let index = 0;
  const path = operation.path.replace(/\{[^}]+\}/g, () =>
    strategy === 'missing resource' ? (segments[index++] as string) : 'zz_missing',
  );
  const headers: Record<string, string> = { authorization: `Bearer ${fake.tokens.token}` };
  let query = '';
  let payload: string | undefined;
  if (strategy === 'unknown query parameter') query = `?zz_unknown=${encodeURIComponent(garbage)}`;
  if (strategy === 'unknown body field') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify({ ...body, zz_unknown: garbage });
  }
  if (strategy === 'malformed JSON') {
    headers['content-type'] = 'application/json';
    payload = `{${garbage}`;
  }
  if (strategy === 'wrong content type') {
    headers['content-type'] = 'text/plain';
    payload = `x${garbage}`;
  }
  if (strategy === 'missing resource' && operation.method !== 'GET') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  return {
    url: `${fake.url}${path}${query}`,
    init: {
      method: operation.method,
      headers,
      ...(payload === undefined ? {} : { body: payload }),
    },
  };
}

describe('the fake under random invalid input', () => {
  it('answers every invalid call with a 4xx and a valid Error body, never a 5xx, never a hang', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(invalidCall, async (call) => {
        const { url, init } = request(call);
        const response = await fake.fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
        const label = `${call.strategy}: ${init.method} ${url}`;
        expect(response.status, label).toBeGreaterThanOrEqual(400);
        expect(response.status, label).toBeLessThan(500);
        expect(v.safeParse(ErrorSchema, await response.json()).success, label).toBe(true);
        seen.set(String(response.status), (seen.get(String(response.status)) ?? 0) + 1);
      }),
      { numRuns: 500, seed: 20261122 },
    );
    expect(unexpected).toEqual([]);
    // The strategies reach different checks: 400, 404 and 415 all occur.
    expect([...seen.keys()].sort()).toEqual(expect.arrayContaining(['400', '404', '415']));
    await fake.close();
  });
});
