import * as samples from '../../test-support/samples.js';
import { type MethodCase, noContent, ok } from './method-case.js';

/** One realistic call of every operation of `invocations`. */
export const cases: Record<string, MethodCase> = {
  'invocations.listBrowsers': {
    input: { id: 'inv_1' },
    method: 'GET',
    url: '/invocations/inv_1/browsers',
    respond: ok({ browsers: [samples.session] }),
    result: { browsers: [samples.session] },
  },
  'invocations.deleteBrowsers': {
    input: { id: 'inv_1' },
    method: 'DELETE',
    url: '/invocations/inv_1/browsers',
    respond: noContent,
    result: undefined,
  },
  'invocations.create': {
    input: { action_name: 'checkout', app_name: 'shop', async: true },
    method: 'POST',
    url: '/invocations',
    body: { action_name: 'checkout', app_name: 'shop', async: true },
    respond: { status: 202, json: samples.invocation },
    result: { status: 202, value: samples.invocation },
  },
  'invocations.list': {
    input: { status: 'running', app_name: 'shop', action_name: 'checkout', offset: 20 },
    method: 'GET',
    url: '/invocations?offset=20&status=running&app_name=shop&action_name=checkout',
    respond: ok([samples.invocation]),
    result: [samples.invocation],
  },
  'invocations.get': {
    input: { id: 'inv_1' },
    method: 'GET',
    url: '/invocations/inv_1',
    respond: ok(samples.invocation),
    result: samples.invocation,
  },
  'invocations.update': {
    input: { id: 'inv_1', status: 'succeeded' },
    method: 'PATCH',
    url: '/invocations/inv_1',
    body: { status: 'succeeded' },
    respond: ok({ ...samples.invocation, status: 'succeeded' }),
    result: { ...samples.invocation, status: 'succeeded' },
  },
};
