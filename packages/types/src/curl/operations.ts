import { BrowserPathSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { curlServerTimeMs } from '../catalog/server-time.js';
import { CurlBodySchema, CurlResultSchema } from './curl.js';

/**
 * POST /browsers/{id}/curl: an HTTP request made by the browser's own network stack (its cookies,
 * proxy, egress policy, user agent), answered with the target's status, headers and body.
 */
export const curlOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.curl',
  clusterRoute: 'session',
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
