import { type MethodCase, ok } from './method-case.js';

/** One realistic call of every operation of `curl`. */
export const cases: Record<string, MethodCase> = {
  'browsers.curl': {
    input: { id: 'br_1', url: 'https://example.com/', method: 'POST', body: 'hi' },
    method: 'POST',
    url: '/browsers/br_1/curl',
    body: { url: 'https://example.com/', method: 'POST', body: 'hi' },
    respond: ok({
      status: 200,
      headers: { 'content-type': ['text/plain'] },
      body: 'ok',
      duration_ms: 3,
    }),
    result: {
      status: 200,
      headers: { 'content-type': ['text/plain'] },
      body: 'ok',
      duration_ms: 3,
    },
  },
};
