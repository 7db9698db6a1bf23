import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser } from './resources.js';

interface Outcome {
  readonly success: boolean;
  readonly result?: unknown;
  readonly error?: string;
}

/** Playwright code run beside the browser, on the page the session is on. */
export const playwrightChecks: readonly ContractCheck[] = defineChecks('playwright', {
  'playwright execute returns what the code returns': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const outcome = context.expectSuccess<Outcome>(
      await context.call('POST', `/browsers/${id}/playwright/execute`, {
        json: { code: 'return {"answer": 42}' },
      }),
      'browsers.playwright.execute',
      200,
    );
    expect(
      outcome.success === true && JSON.stringify(outcome.result) === '{"answer":42}',
      `return {"answer": 42} came back as ${JSON.stringify(outcome)}`,
    );
  },
  'playwright execute answers a thrown error as 200 with success false': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const outcome = context.expectSuccess<Outcome>(
      await context.call('POST', `/browsers/${id}/playwright/execute`, {
        json: { code: 'throw new Error("contract failure")' },
      }),
      'browsers.playwright.execute',
      200,
    );
    expect(
      outcome.success === false && outcome.error === 'contract failure',
      `a thrown error came back as ${JSON.stringify(outcome)}`,
    );
  },
  'playwright execute refuses a time-out out of bounds and an unknown browser': async (context) => {
    const { session_id: id } = await createBrowser(context);
    context.expectError(
      await context.call('POST', `/browsers/${id}/playwright/execute`, {
        json: { code: 'return 1', timeout_sec: 301 },
      }),
      400,
      'bad_request',
    );
    context.expectError(
      await context.call('POST', '/browsers/br_contract_missing/playwright/execute', {
        json: { code: 'return 1' },
      }),
      404,
      'not_found',
    );
  },
});
