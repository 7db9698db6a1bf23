import * as samples from '../../test-support/samples.js';
import { created, type MethodCase, noContent, ok } from './method-case.js';

/** One realistic call of every operation of `profiles`. */
export const cases: Record<string, MethodCase> = {
  'profiles.create': {
    input: { name: 'shop' },
    method: 'POST',
    url: '/profiles',
    body: { name: 'shop' },
    respond: created(samples.profile),
    result: samples.profile,
  },
  'profiles.list': {
    input: { query: 'sh', limit: 5, offset: 10 },
    method: 'GET',
    url: '/profiles?offset=10&limit=5&query=sh',
    respond: ok([samples.profile]),
    result: [samples.profile],
  },
  'profiles.get': {
    input: { id_or_name: 'shop' },
    method: 'GET',
    url: '/profiles/shop',
    respond: ok(samples.profile),
    result: samples.profile,
  },
  'profiles.update': {
    input: { id_or_name: 'shop', name: 'store' },
    method: 'PATCH',
    url: '/profiles/shop',
    body: { name: 'store' },
    respond: ok({ ...samples.profile, name: 'store' }),
    result: { ...samples.profile, name: 'store' },
  },
  'profiles.delete': {
    input: { id_or_name: 'shop' },
    method: 'DELETE',
    url: '/profiles/shop',
    respond: noContent,
    result: undefined,
  },
};
