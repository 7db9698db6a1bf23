import { BrowserPathSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { curlServerTimeMs, playwrightServerTimeMs } from '../catalog/server-time.js';
import { CurlBodySchema, CurlResultSchema } from './curl.js';
import { LogEventSchema, LogStreamQuerySchema } from './logs.js';
import { PlaywrightExecuteBodySchema, PlaywrightExecuteResultSchema } from './playwright.js';
import { TelemetryEnvelopeListSchema, TelemetryEnvelopeSchema } from './telemetry.js';
import { TelemetryEventsQuerySchema, TelemetryStreamQuerySchema } from './telemetry-query.js';

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

/**
 * GET /browsers/{id}/telemetry/events: a page of the events the session's telemetry kept, oldest
 * first (or newest first), filtered by category and time; `X-Next-Offset` is a sequence number,
 * so a page goes on where the last one ended even as old events are dropped.
 */
export const listTelemetryEventsOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.telemetry.events',
  summary: 'List the telemetry events of a browser session.',
  paginated: true,
  method: 'GET',
  path: '/browsers/{id}/telemetry/events',
  pathParams: BrowserPathSchema,
  query: TelemetryEventsQuerySchema,
  responses: { 200: { kind: 'json', schema: TelemetryEnvelopeListSchema } },
  errorStatuses: [404],
  access: 'contents',
});

/**
 * GET /browsers/{id}/telemetry/stream: the session's telemetry events as server-sent events, each
 * with `id: <seq>`; `Last-Event-ID` (or `last_event_id`) goes on after an event, `replay=all`
 * starts from the oldest kept. It ends with the session.
 */
export const streamTelemetryOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.telemetry.stream',
  summary: 'Stream the telemetry events of a browser session (SSE).',
  method: 'GET',
  path: '/browsers/{id}/telemetry/stream',
  pathParams: BrowserPathSchema,
  query: TelemetryStreamQuerySchema,
  queryFromHeaders: { 'last-event-id': 'last_event_id' },
  responses: { 200: { kind: 'event-stream', eventSchema: TelemetryEnvelopeSchema } },
  errorStatuses: [404, 429],
  access: 'contents',
  acceptsSessionJwt: true,
});
