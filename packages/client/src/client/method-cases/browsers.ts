import * as samples from '../../test-support/samples.js';
import { created, type MethodCase, noContent, ok } from './method-case.js';

/** One realistic call of every operation of `browsers`. */
export const cases: Record<string, MethodCase> = {
  'browsers.create': {
    input: { invocation_id: 'inv_1', viewport: { width: 1280, height: 800 } },
    method: 'POST',
    url: '/browsers',
    body: { invocation_id: 'inv_1', viewport: { width: 1280, height: 800 } },
    respond: created(samples.session),
    result: samples.session,
  },
  'browsers.list': {
    input: { status: 'all', limit: 50 },
    method: 'GET',
    url: '/browsers?limit=50&status=all',
    respond: ok([samples.session]),
    result: [samples.session],
  },
  'browsers.get': {
    input: { id: 'br_1' },
    method: 'GET',
    url: '/browsers/br_1',
    respond: ok(samples.session),
    result: samples.session,
  },
  'browsers.update': {
    input: { id: 'checkout-agent', tags: { team: 'shop' }, viewport: { width: 800, height: 600 } },
    method: 'PATCH',
    url: '/browsers/checkout-agent',
    body: { tags: { team: 'shop' }, viewport: { width: 800, height: 600 } },
    respond: ok(samples.session),
    result: samples.session,
  },
  'browsers.delete': {
    input: { id: 'br_1' },
    method: 'DELETE',
    url: '/browsers/br_1',
    respond: noContent,
    result: undefined,
  },
};
