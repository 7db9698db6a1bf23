import { type MethodCase, ok } from './method-case.js';

/** One realistic call of every operation of `playwright`. */
export const cases: Record<string, MethodCase> = {
  'browsers.playwright.execute': {
    input: { id: 'br_1', code: 'return 1', timeout_sec: 5 },
    method: 'POST',
    url: '/browsers/br_1/playwright/execute',
    body: { code: 'return 1', timeout_sec: 5 },
    respond: ok({ success: true, result: 1 }),
    result: { success: true, result: 1 },
  },
};
