import type { ProxyChecker, ProxyCheckResult, ProxyTarget } from '@x/service-kernel';

/** The address a fake proxy check finds unless told otherwise (TEST-NET-1, never routed). */
export const FAKE_PROXY_EXIT_ADDRESS = '192.0.2.1';

/**
 * Checks proxies without a network: each is available, exiting from 192.0.2.1, unless a test
 * said otherwise for its `host:port` (`fake.setProxyCheck`).
 */
export class FakeProxyChecker implements ProxyChecker {
  readonly outcomes = new Map<string, ProxyCheckResult>();
  /** Every proxy checked, in order, as the checker was given it (the password opened). */
  readonly checked: ProxyTarget[] = [];

  async check(target: ProxyTarget): Promise<ProxyCheckResult> {
    this.checked.push(target);
    return (
      this.outcomes.get(`${target.host}:${target.port}`) ?? {
        isAvailable: true,
        ipAddress: FAKE_PROXY_EXIT_ADDRESS,
      }
    );
  }
}
