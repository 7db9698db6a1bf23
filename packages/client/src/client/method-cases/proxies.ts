import * as samples from '../../test-support/samples.js';
import { created, type MethodCase, noContent, ok } from './method-case.js';

/** One realistic call of every operation of `proxies`. */
export const cases: Record<string, MethodCase> = {
  'proxies.create': {
    input: {
      type: 'custom',
      config: { host: 'proxy.example.com', port: 3128, username: 'agent', password: 'pw' },
      bypass_hosts: ['localhost'],
    },
    method: 'POST',
    url: '/proxies',
    body: {
      type: 'custom',
      config: { host: 'proxy.example.com', port: 3128, username: 'agent', password: 'pw' },
      bypass_hosts: ['localhost'],
    },
    respond: created(samples.proxy),
    result: samples.proxy,
  },
  'proxies.list': {
    method: 'GET',
    url: '/proxies',
    respond: ok([samples.proxy]),
    result: [samples.proxy],
  },
  'proxies.get': {
    input: { id: 'px_1' },
    method: 'GET',
    url: '/proxies/px_1',
    respond: ok(samples.proxy),
    result: samples.proxy,
  },
  'proxies.update': {
    input: { id: 'px_1', config: { password: null } },
    method: 'PATCH',
    url: '/proxies/px_1',
    body: { config: { password: null } },
    respond: ok(samples.proxy),
    result: samples.proxy,
  },
  'proxies.delete': {
    input: { id: 'px_1', force: true },
    method: 'DELETE',
    url: '/proxies/px_1?force=true',
    respond: noContent,
    result: undefined,
  },
  'proxies.check': {
    input: { id: 'px_1' },
    method: 'POST',
    url: '/proxies/px_1/check',
    respond: ok({ ...samples.proxy, status: 'available', ip_address: '203.0.113.9' }),
    result: { ...samples.proxy, status: 'available', ip_address: '203.0.113.9' },
  },
};
