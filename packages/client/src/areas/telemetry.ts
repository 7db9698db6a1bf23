/**
 * The `telemetry` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */

import { defineCall } from '../calls/define-call.js';
import type { PagePromise } from '../calls/list-page.js';
import { defineListCall } from '../calls/list-page.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type { EventStream } from '../streams/event-stream.js';
import { readStreamBody } from '../streams/read-body.js';

// Records

export interface TelemetryConfig {
  /** its categories */
  browser: {
    /** one category of events */
    control?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    connection?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    system?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    captcha?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    console?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    network?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    page?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    interaction?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    screenshot?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
  };
}

export interface TelemetryEvent {
  /** what kind of event: control, connection, console, network, page, … */
  category:
    | 'control'
    | 'connection'
    | 'system'
    | 'captcha'
    | 'console'
    | 'network'
    | 'page'
    | 'interaction'
    | 'screenshot'
    | 'monitor';
  /** the event: api_call, cdp_connect, console_log, network_loading_failed, page_load, … */
  type: string;
  /** when it happened, Unix microseconds */
  ts: number;
  /** who produced it */
  source: {
    /** cdp: the browser; kernel_api: the service API */
    kind: 'cdp' | 'kernel_api' | 'extension' | 'local_process';
    /** the producer’s own name of the event (Runtime.consoleAPICalled, …) */
    event?: string | undefined;
    /** the producer’s own context */
    metadata?: { [key: string]: string } | undefined;
  };
  /** what the event says; its fields depend on `type` */
  data?: { [key: string]: unknown } | undefined;
  /** true when data was longer than 8 KiB of JSON and was cut */
  truncated?: boolean | undefined;
}

export interface TelemetryEnvelope {
  /** its sequence number in the session, from 1; a gap means events were dropped */
  seq: number;
  /** the event */
  event: TelemetryEvent;
}

// Inputs and answers

/** What `browsers.telemetry.events` takes: its path parameters, query parameters, side by side. */
export interface ListTelemetryEventsInput {
  /** browser session id */
  id: string;
  /**
   * where the page starts: the X-Next-Offset of the page before (a sequence number); 0 or absent for the first page
   * @default 0
   */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only these categories, comma-separated or the key repeated */
  category?: string | string[] | undefined;
  /** asc (the default): oldest first; desc: newest first */
  order?: 'asc' | 'desc' | undefined;
  /** only events at or after this: RFC 3339, or a duration meaning that long ago (5m); all kept events when absent */
  since?: string | undefined;
  /** only events before this: RFC 3339, or a duration meaning that long ago */
  until?: string | undefined;
}

/** What `browsers.telemetry.stream` takes: its path parameters, query parameters, side by side. */
export interface StreamTelemetryInput {
  /** browser session id */
  id: string;
  /** all: start from the oldest event kept; anything else, or absent: only new events */
  replay?: string | undefined;
  /** go on after this event (the Last-Event-ID header says the same, and wins over replay) */
  last_event_id?: number | string | undefined;
}

// Functions

// browsers.telemetry

/**
 * List the telemetry events of a browser session.
 *
 * `GET /browsers/{id}/telemetry/events`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.telemetry.events`
 */
export const listTelemetryEvents: (
  core: Core,
  input: ListTelemetryEventsInput,
  options?: CallOptions,
) => PagePromise<TelemetryEnvelope> = /* @__PURE__ */ defineListCall<
  ListTelemetryEventsInput,
  TelemetryEnvelope
>({
  name: 'browsers.telemetry.events',
  method: 'GET',
  path: '/browsers/{id}/telemetry/events',
  query: ['offset', 'limit', 'category', 'order', 'since', 'until'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Stream the telemetry events of a browser session (SSE).
 *
 * `GET /browsers/{id}/telemetry/stream`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.telemetry.stream`
 */
export const streamTelemetry: (
  core: Core,
  input: StreamTelemetryInput,
  options?: CallOptions,
) => CallPromise<EventStream<TelemetryEnvelope>> = /* @__PURE__ */ defineCall<
  StreamTelemetryInput,
  EventStream<TelemetryEnvelope>
>(
  {
    name: 'browsers.telemetry.stream',
    method: 'GET',
    path: '/browsers/{id}/telemetry/stream',
    query: ['replay', 'last_event_id'],
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);
