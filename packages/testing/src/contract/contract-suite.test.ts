import { describe, expect, it } from 'vitest';
import { createFakeService } from '../fake/fake-service.js';
import { describeContractSuite, useFakeService } from '../vitest/index.js';
import { contractChecks, runContractSuite } from './run-contract-suite.js';

const overHttp = useFakeService({ listen: true, resetAfterEach: false });
describeContractSuite('the fake over HTTP', () => ({
  baseUrl: overHttp.url,
  token: overHttp.tokens.token,
  readOnlyToken: overHttp.tokens.readOnlyToken,
}));

describe('runContractSuite', () => {
  it('passes every check against the fake in-process', async () => {
    const fake = createFakeService();
    const report = await runContractSuite({ baseUrl: fake.url, fetch: fake.fetch, ...fake.tokens });
    await fake.close();
    expect(report.results.filter((result) => !result.passed)).toEqual([]);
    expect(report.passed).toBe(contractChecks.length);
    // Every check in one test, some waiting on the fake's clocks: 13 s on a quiet machine, more
    // than twice that on a busy one. The bound is for a hang, not a measure.
  }, 180_000);

  it('reports a service that breaks the contract', async () => {
    const fake = createFakeService();
    // A service that never checks tokens: every call succeeds as if authorised.
    const lax: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      request.headers.set('authorization', `Bearer ${fake.tokens.token}`);
      return fake.fetch(request);
    };
    const report = await runContractSuite(
      { baseUrl: fake.url, fetch: lax, ...fake.tokens },
      { filter: (check) => check.area === 'common' },
    );
    await fake.close();
    const failed = report.results.filter((result) => !result.passed).map((result) => result.name);
    expect(failed).toContain('a call without a token is 401 unauthorized');
    expect(failed).toContain('a read-only token reads, and acting with it is 403 forbidden');
  });
});
