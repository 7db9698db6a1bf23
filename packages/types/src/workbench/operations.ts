import { BrowserPathSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { curlServerTimeMs, playwrightServerTimeMs } from '../catalog/server-time.js';
import { CurlBodySchema, CurlResultSchema } from './curl.js';
import { LogEventSchema, LogStreamQuerySchema } from './logs.js';
import { PlaywrightExecuteBodySchema, PlaywrightExecuteResultSchema } from './playwright.js';

/**
 * POST /browsers/{id}/playwright/execute: runs Playwright code beside the browser, in the
 * session's sandbox, on the page the session is on. Calls to one browser run one at a time.
 */
export const executePlaywrightOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.playwright.execute',
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

/**
 * GET /browsers/{id}/logs/stream: the lines of a file on the instance, or of the session's own
 * service log, as server-sent events; `follow` starts at the end and waits for more.
 */
export const streamLogsOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.logs.stream',
  summary: 'Stream the lines of a log (SSE).',
  method: 'GET',
  path: '/browsers/{id}/logs/stream',
  pathParams: BrowserPathSchema,
  query: LogStreamQuerySchema,
  responses: { 200: { kind: 'event-stream', eventSchema: LogEventSchema } },
  errorStatuses: [404, 429, 503],
  access: 'contents',
});

/**
 * POST /browsers/{id}/curl: an HTTP request made by the browser's own network stack (its cookies,
 * proxy, egress policy, user agent), answered with the target's status, headers and body.
 */
export const curlOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.curl',
  summary: 'Make an HTTP request through the browser.',
  method: 'POST',
  path: '/browsers/{id}/curl',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: CurlBodySchema },
  responses: { 200: { kind: 'json', schema: CurlResultSchema } },
  errorStatuses: [404, 429, 502, 503, 504],
  access: 'write',
  acceptsSessionJwt: true,
  serverTimeMs: curlServerTimeMs,
});
