import { BrowserPathSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { TelemetryEnvelopeListSchema, TelemetryEnvelopeSchema } from './telemetry.js';
import { TelemetryEventsQuerySchema, TelemetryStreamQuerySchema } from './telemetry-query.js';

/**
 * GET /browsers/{id}/telemetry/events: a page of the events the session's telemetry kept, oldest
 * first (or newest first), filtered by category and time; `X-Next-Offset` is a sequence number,
 * so a page goes on where the last one ended even as old events are dropped.
 */
export const listTelemetryEventsOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.telemetry.events',
  clusterRoute: 'session',
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
  clusterRoute: 'session',
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
