import { type OperationName, operations } from '@x/types';
import { describe, expect, it } from 'vitest';
import { type ClusterRoute, clusterRouteOf } from './cluster-routes.js';

/** The route an operation's path says it must have, where its path decides. */
function routeByPath(path: string): ClusterRoute | undefined {
  if (path.startsWith('/browsers/{id}')) return 'session';
  if (/^\/(?:deployments|invocations)\/\{id\}/.test(path)) return 'run';
  if (path.startsWith('/browser_pools/{id_or_name}')) return 'pool';
  return undefined;
}

/** Operations routed other than their path says, and why. */
const DECIDED: Partial<Record<OperationName, ClusterRoute>> = {
  // Answered where it arrives: that node's model asks the pool's holder for a browser.
  'browserPools.acquire': 'here',
  'browsers.create': 'place',
  'invocations.create': 'invoke',
  'browserPools.list': 'gather',
  'nodes.drain': 'node',
};

describe('cluster routes', () => {
  it('route every operation by what its path names, or as decided', () => {
    for (const operation of operations) {
      const expected = DECIDED[operation.name] ?? routeByPath(operation.path) ?? 'here';
      expect(operation.clusterRoute, operation.name).toBe(expected);
    }
  });

  it('find a call’s route and the id or name it follows from its operation', () => {
    expect(clusterRouteOf('GET', '/browsers/br_1/computer/screenshot')).toEqual({
      route: 'session',
      key: 'br_1',
    });
    expect(clusterRouteOf('POST', '/browsers/my%20name/computer/type')).toEqual({
      route: 'session',
      key: 'my name',
    });
    expect(clusterRouteOf('GET', '/invocations/inv_1/events')).toEqual({
      route: 'run',
      key: 'inv_1',
    });
    expect(clusterRouteOf('PATCH', '/browser_pools/warm/')).toEqual({
      route: 'pool',
      key: 'warm',
      pool: 'warm',
    });
    expect(clusterRouteOf('POST', '/browser_pools/warm/acquire')).toEqual({
      route: 'here',
      pool: 'warm',
    });
    expect(clusterRouteOf('POST', '/org/nodes/n2/drain')).toEqual({ route: 'node', key: 'n2' });
    expect(clusterRouteOf('POST', '/browsers')).toEqual({ route: 'place' });
    expect(clusterRouteOf('GET', '/browsers')).toEqual({ route: 'here' });
    expect(clusterRouteOf('GET', '/org/projects/alpha')).toEqual({ route: 'here' });
  });

  it('send a session’s pages, sockets and unknown paths to it, and nothing it cannot name', () => {
    for (const path of [
      '/browsers/br_1/live',
      '/browsers/br_1/live/ws',
      '/browsers/br_1/cdp',
      '/browsers/br_1/webdriver/session',
      '/browsers/br_1/replays/rp_1/view',
      '/browsers/br_1/no-such-thing',
    ])
      expect(clusterRouteOf('GET', path), path).toEqual({ route: 'session', key: 'br_1' });
    expect(clusterRouteOf('HEAD', '/browsers/br_1')).toEqual({ route: 'session', key: 'br_1' });
    expect(clusterRouteOf('GET', '/browsers/%E0%A4%A/live')).toEqual({ route: 'here' });
    expect(clusterRouteOf('GET', `/browsers/${'b'.repeat(300)}`)).toEqual({ route: 'here' });
    expect(clusterRouteOf('GET', '/openapi.json')).toEqual({ route: 'here' });
  });
});
