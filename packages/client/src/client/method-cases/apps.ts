import * as samples from '../../test-support/samples.js';
import { type MethodCase, noContent, ok } from './method-case.js';

/** One realistic call of every operation of `apps`. */
export const cases: Record<string, MethodCase> = {
  'deployments.list': {
    input: { app_name: 'greeter', app_version: 'v1' },
    method: 'GET',
    url: '/deployments?app_name=greeter&app_version=v1',
    respond: ok([samples.deployment]),
    result: [samples.deployment],
  },
  'deployments.get': {
    input: { id: 'dep_1' },
    method: 'GET',
    url: '/deployments/dep_1',
    respond: ok(samples.deployment),
    result: samples.deployment,
  },
  'deployments.delete': {
    input: { id: 'dep_1' },
    method: 'DELETE',
    url: '/deployments/dep_1',
    respond: noContent,
    result: undefined,
  },
  'apps.list': {
    input: { app_name: 'greeter' },
    method: 'GET',
    url: '/apps?app_name=greeter',
    respond: ok([samples.appVersion]),
    result: [samples.appVersion],
  },
};
