import { ContractContext } from '../contract/context.js';
import type { FakeService } from '../fake/fake-service.js';

/** A caller of a fake in its tests: plain HTTP calls, read whole, with the fake's full token. */
export function apiOf(fake: FakeService, options: { overHttp?: boolean } = {}): ContractContext {
  return new ContractContext({
    baseUrl: fake.url,
    ...fake.tokens,
    ...(options.overHttp ? {} : { fetch: fake.fetch }),
    timeoutMs: 5_000,
  });
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return {
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}
