import { ErrorSchema, operations } from '@x/types';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createFakeService } from './fake-service.js';

const fake = createFakeService({ onUnexpectedError: (error) => unexpected.push(error) });
const unexpected: unknown[] = [];

/** Any JSON value, nested a little: what a careless or hostile caller may send. */
const anyJson = fc.jsonValue({ maxDepth: 3 });

/** A path parameter: ids of every shape, including ones no id has. */
const anySegment = fc.oneof(
  fc.constantFrom('br_missing', 'x', '-', 'a'.repeat(65), '%zz', '..', '%2e%2e', '%00', 'émoji👋'),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

/** One call of a catalog operation with random path parameters, query and body. */
const anyCall = fc.record({
  operation: fc.constantFrom(...operations),
  segments: fc.array(anySegment, { minLength: 4, maxLength: 4 }),
  query: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 2 }),
  body: fc.oneof(
    anyJson.map((value) => JSON.stringify(value)),
    fc.string({ maxLength: 50 }),
    fc.constant(''),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'text/plain',
    'multipart/form-data; boundary=x',
    '',
  ),
});

describe('the fake under random invalid input', () => {
  it('answers every call with a status below 500 and, for errors, a valid Error body', async () => {
    await fc.assert(
      fc.asyncProperty(anyCall, async ({ operation, segments, query, body, contentType }) => {
        let index = 0;
        const path = operation.path.replace(/\{[^}]+\}/g, () => segments[index++] as string);
        const search = new URLSearchParams(query).toString();
        const headers: Record<string, string> = { authorization: `Bearer ${fake.tokens.token}` };
        if (contentType) headers['content-type'] = contentType;
        const hasBody = operation.method !== 'GET';
        const response = await fake.fetch(`${fake.url}${path}${search ? `?${search}` : ''}`, {
          method: operation.method,
          headers,
          ...(hasBody ? { body } : {}),
          signal: AbortSignal.timeout(5_000),
        });
        // Success is possible (an empty body where all fields are optional); a 5xx never is.
        expect(response.status, `${operation.method} ${path}`).toBeLessThan(500);
        if (response.status >= 400) {
          const parsed = v.safeParse(ErrorSchema, await response.json());
          expect(parsed.success).toBe(true);
        } else {
          await response.body?.cancel();
        }
      }),
      { numRuns: 400, seed: 20261122 },
    );
    expect(unexpected).toEqual([]);
    await fake.close();
  });
});
