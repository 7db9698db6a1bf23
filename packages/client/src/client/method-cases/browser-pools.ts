import * as samples from '../../test-support/samples.js';
import { created, type MethodCase, noContent, ok } from './method-case.js';

/** One realistic call of every operation of `browser-pools`. */
export const cases: Record<string, MethodCase> = {
  'browserPools.get': {
    input: { id_or_name: 'checkout' },
    method: 'GET',
    url: '/browser_pools/checkout',
    respond: ok(samples.pool),
    result: samples.pool,
  },
  'browserPools.create': {
    input: { name: 'checkout', size: 2 },
    method: 'POST',
    url: '/browser_pools',
    body: { name: 'checkout', size: 2 },
    respond: created(samples.pool),
    result: samples.pool,
  },
  'browserPools.list': {
    input: { name: 'checkout' },
    method: 'GET',
    url: '/browser_pools?name=checkout',
    respond: ok([samples.pool]),
    result: [samples.pool],
  },
  'browserPools.update': {
    input: { id_or_name: 'checkout', size: 3 },
    method: 'PATCH',
    url: '/browser_pools/checkout',
    body: { size: 3 },
    respond: ok(samples.pool),
    result: samples.pool,
  },
  'browserPools.delete': {
    input: { id_or_name: 'checkout', force: true },
    method: 'DELETE',
    url: '/browser_pools/checkout?force=true',
    respond: noContent,
    result: undefined,
  },
  'browserPools.acquire': {
    input: { id_or_name: 'checkout', acquire_timeout_seconds: 1 },
    method: 'POST',
    url: '/browser_pools/checkout/acquire',
    body: { acquire_timeout_seconds: 1 },
    respond: ok(samples.session),
    result: { status: 200, value: samples.session },
  },
  'browserPools.release': {
    input: { id_or_name: 'checkout', session_id: 'br_1', reuse: false },
    method: 'POST',
    url: '/browser_pools/checkout/release',
    body: { session_id: 'br_1', reuse: false },
    respond: noContent,
    result: undefined,
  },
  'browserPools.flush': {
    input: { id_or_name: 'checkout' },
    method: 'POST',
    url: '/browser_pools/checkout/flush',
    respond: noContent,
    result: undefined,
  },
};
