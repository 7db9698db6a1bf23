import * as samples from '../../test-support/samples.js';
import { type MethodCase, noContent, ok } from './method-case.js';

/** One realistic call of every operation of `extensions`. */
export const cases: Record<string, MethodCase> = {
  'extensions.metadata': {
    input: { id_or_name: 'adblock' },
    method: 'GET',
    url: '/extensions/adblock/metadata',
    respond: ok(samples.extension),
    result: samples.extension,
  },
  'extensions.list': {
    input: { query: 'ad block' },
    method: 'GET',
    url: '/extensions?query=ad%20block',
    respond: ok([samples.extension]),
    result: [samples.extension],
  },
  'extensions.delete': {
    input: { id_or_name: 'adblock' },
    method: 'DELETE',
    url: '/extensions/adblock',
    respond: noContent,
    result: undefined,
  },
};
