import { BrowserPathSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { playwrightServerTimeMs } from '../catalog/server-time.js';
import { PlaywrightExecuteBodySchema, PlaywrightExecuteResultSchema } from './playwright.js';

/**
 * POST /browsers/{id}/playwright/execute: runs Playwright code beside the browser, in the
 * session's sandbox, on the page the session is on. Calls to one browser run one at a time.
 */
export const executePlaywrightOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.playwright.execute',
  clusterRoute: 'session',
  summary: 'Run Playwright code against the browser.',
  method: 'POST',
  path: '/browsers/{id}/playwright/execute',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: PlaywrightExecuteBodySchema },
  responses: { 200: { kind: 'json', schema: PlaywrightExecuteResultSchema } },
  errorStatuses: [404, 409, 503],
  access: 'write',
  serverTimeMs: playwrightServerTimeMs,
});
