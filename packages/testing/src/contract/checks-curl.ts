import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser } from './resources.js';

/** curl: an HTTP request made through the browser's own network stack. */
export const curlChecks: readonly ContractCheck[] = defineChecks('curl', {
  'curl refuses what is not http, answers 502 for a host that is not there': async (context) => {
    const { session_id: id } = await createBrowser(context);
    for (const json of [
      { url: 'ftp://example.com/' },
      { url: 'not a url' },
      { url: 'https://example.com/', method: 'TRACE' },
      { url: 'https://example.com/', timeout_ms: 0 },
      { url: 'https://example.com/', headers: { 'bad name': 'x' } },
    ]) {
      context.expectError(
        await context.call('POST', `/browsers/${id}/curl`, { json }),
        400,
        'bad_request',
      );
    }
    const nowhere = await context.call('POST', `/browsers/${id}/curl`, {
      json: { url: 'http://xb-contract.invalid/', timeout_ms: 20_000 },
    });
    context.expectError(nowhere, 502, 'bad_gateway');
    expect(
      nowhere.text.includes('xb-contract.invalid'),
      `a failed curl does not name its URL: ${nowhere.text.slice(0, 300)}`,
    );
    context.expectError(
      await context.call('POST', '/browsers/br_contract_missing/curl', {
        json: { url: 'https://example.com/' },
      }),
      404,
      'not_found',
    );
  },
});
