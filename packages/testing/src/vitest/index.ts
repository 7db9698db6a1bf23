/**
 * @x/testing/vitest: the fake and the contract suite wired into vitest's lifecycle. The main entry
 * of @x/testing imports no test framework; this one imports vitest.
 */
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import {
  type ContractTarget,
  contractChecks,
  runContractCheck,
} from '../contract/run-contract-suite.js';
import {
  createFakeService,
  type FakeService,
  type FakeServiceOptions,
} from '../fake/fake-service.js';
import type { ListenOptions } from '../fake/node-listener.js';

/** How `useFakeService` runs the fake. */
export interface UseFakeServiceOptions extends FakeServiceOptions {
  /** Listen over HTTP before the tests (`true` for a free loopback port); in-process only by default. */
  readonly listen?: boolean | ListenOptions;
  /** Empty the fake after each test (the default), or keep its state across the file's tests. */
  readonly resetAfterEach?: boolean;
}

/**
 * Creates a fake for the tests of the current file or `describe`: it starts listening before
 * them (when asked), is reset after each test, and is closed after them all.
 *
 * @example
 * const fake = useFakeService({ listen: true });
 * it('gets a pool', async () => {
 *   const client = createClient({ baseUrl: fake.url, token: fake.tokens.token });
 *   …
 * });
 */
export function useFakeService(options: UseFakeServiceOptions = {}): FakeService {
  const { listen, resetAfterEach = true, ...fakeOptions } = options;
  const fake = createFakeService(fakeOptions);
  if (listen) {
    beforeAll(async () => {
      await fake.listen(listen === true ? {} : listen);
    });
  }
  if (resetAfterEach) afterEach(() => fake.reset());
  afterAll(() => fake.close());
  return fake;
}

/**
 * Registers the contract suite as vitest tests, one `describe` per area and one `it` per check,
 * against the target `getTarget` gives once the file's `beforeAll` hooks have run.
 *
 * @example
 * const fake = useFakeService({ listen: true, resetAfterEach: false });
 * describeContractSuite('the fake over HTTP', () => ({ baseUrl: fake.url, ...fake.tokens }));
 */
/** Longest one contract check may take under vitest, in ms. */
const CONTRACT_CHECK_TIMEOUT_MS = 120_000;

export function describeContractSuite(title: string, getTarget: () => ContractTarget): void {
  describe(title, () => {
    const areas = [...new Set(contractChecks.map((check) => check.area))];
    for (const area of areas) {
      describe(area, () => {
        for (const check of contractChecks.filter((candidate) => candidate.area === area)) {
          // Each call of a check has its own time-out; the check as a whole may take a while on a
          // loaded machine (a 50 MiB upload, a sign-in flow).
          it(check.name, () => runContractCheck(check, getTarget()), CONTRACT_CHECK_TIMEOUT_MS);
        }
      });
    }
  });
}
