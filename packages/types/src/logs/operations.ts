import { BrowserPathSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { LogEventSchema, LogStreamQuerySchema } from './logs.js';

/**
 * GET /browsers/{id}/logs/stream: the lines of a file on the instance, or of the session's own
 * service log, as server-sent events; `follow` starts at the end and waits for more.
 */
export const streamLogsOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.logs.stream',
  clusterRoute: 'session',
  summary: 'Stream the lines of a log (SSE).',
  method: 'GET',
  path: '/browsers/{id}/logs/stream',
  pathParams: BrowserPathSchema,
  query: LogStreamQuerySchema,
  responses: { 200: { kind: 'event-stream', eventSchema: LogEventSchema } },
  errorStatuses: [404, 429, 503],
  access: 'contents',
});
