import { describe, expect, it } from 'vitest';
import { apiOf } from '../test-support/api.js';
import { fakeService } from '../test-support/fakes.js';
import {
  dropConnection,
  errorStatus,
  latency,
  rateLimited,
  truncateBody,
  unavailable,
} from './faults.js';

describe('faults', () => {
  it('delay calls by their latency, adding up', async () => {
    const fake = fakeService();
    fake.inject(latency(60));
    fake.inject(latency(40), { operation: 'browsers.list' });
    const started = performance.now();
    await apiOf(fake).call('GET', '/browsers');
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('answer an error once, N times or always, only for their operations', async () => {
    const fake = fakeService();
    const api = apiOf(fake);
    const once = fake.inject(errorStatus(500), { operation: 'browsers.list', times: 1 });
    const statuses = async (path: string, count: number) => {
      const seen = [];
      for (let index = 0; index < count; index++) seen.push((await api.call('GET', path)).status);
      return seen;
    };
    expect(await statuses('/browsers', 2)).toEqual([500, 200]);
    expect(once.hits).toBe(1);
    expect(once.remaining).toBe(0);
    fake.inject(errorStatus(502, { code: 'internal_error', message: 'gateway' }), {
      operation: ['browserPools.list'],
      times: 2,
    });
    expect(await statuses('/browser_pools', 3)).toEqual([502, 502, 200]);
    const always = fake.inject(errorStatus(500));
    expect(await statuses('/extensions', 3)).toEqual([500, 500, 500]);
    always.remove();
    expect(await statuses('/extensions', 1)).toEqual([200]);
  });

  it('429 and 503 carry Retry-After, an Error body and the request id', async () => {
    const fake = fakeService();
    fake.inject(rateLimited(3), { operation: 'browsers.list', times: 1 });
    fake.inject(unavailable(7), { operation: 'browsers.list', times: 1 });
    const api = apiOf(fake);
    const limited = await api.call('GET', '/browsers');
    api.expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('3');
    const down = await api.call('GET', '/browsers');
    api.expectError(down, 503, 'unavailable');
    expect(down.headers.get('retry-after')).toBe('7');
    expect(fake.journal.calls('browsers.list').map((entry) => entry.fault)).toEqual([
      'error',
      'error',
    ]);
  });

  it('a dropped connection makes fetch throw, in-process and over HTTP', async () => {
    const fake = fakeService();
    await fake.listen();
    fake.inject(dropConnection(), { operation: 'browsers.list', times: 2 });
    await expect(
      fake.fetch(`${fake.url}/browsers`, { headers: { authorization: 'Bearer test-token' } }),
    ).rejects.toThrow(TypeError);
    await expect(
      fetch(`${fake.url}/browsers`, { headers: { authorization: 'Bearer test-token' } }),
    ).rejects.toThrow(TypeError);
    expect(fake.journal.calls('browsers.list').map((entry) => [entry.fault, entry.status])).toEqual(
      [
        ['drop', undefined],
        ['drop', undefined],
      ],
    );
    expect((await apiOf(fake, { overHttp: true }).call('GET', '/browsers')).status).toBe(200);
  });

  it('a truncated body fails part-way, in-process and over HTTP', async () => {
    const fake = fakeService();
    await fake.listen();
    await apiOf(fake).call('POST', '/browsers', { json: {} });
    fake.inject(truncateBody(), { operation: 'browsers.list', times: 2 });
    const init = { headers: { authorization: 'Bearer test-token' } };
    for (const doFetch of [fake.fetch, fetch]) {
      const response = await doFetch(`${fake.url}/browsers`, init);
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow();
    }
    expect(fake.journal.calls('browsers.list').every((entry) => entry.fault === 'truncate')).toBe(
      true,
    );
  });

  it('a fault hits before auth, as a broken network would', async () => {
    const fake = fakeService();
    fake.inject(unavailable(), { times: 1 });
    const answer = await apiOf(fake).call('GET', '/browsers', { token: null });
    expect(answer.status).toBe(503);
  });

  it('refuses a times that is not a whole number of calls', () => {
    const fake = fakeService();
    expect(() => fake.inject(latency(1), { times: 0 })).toThrow(/times/);
  });
});

describe('a connection dropped after handling', () => {
  it('does the work, loses the answer, and a retry with the same key replays it', async () => {
    const fake = fakeService();
    const api = apiOf(fake);
    const { json } = await api.call('POST', '/browsers', { json: {} });
    const id = (json as { session_id: string }).session_id;
    fake.inject(dropConnection({ afterHandling: true }), {
      operation: 'browsers.computer.type',
      times: 1,
    });
    const send = () =>
      fake.fetch(`${fake.url}/browsers/${id}/computer/type`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer test-token',
          'content-type': 'application/json',
          'idempotency-key': 'k1',
        },
        body: JSON.stringify({ text: 'once' }),
      });
    await expect(send()).rejects.toThrow(TypeError);
    expect(fake.typedText(id)).toBe('once');
    const retried = await send();
    expect(retried.status).toBe(204);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(fake.typedText(id)).toBe('once');
  });
});
