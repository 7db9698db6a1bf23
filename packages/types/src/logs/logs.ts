import {
  boolean,
  check,
  forward,
  type InferInput,
  type InferOutput,
  literal,
  object,
  optional,
  partialCheck,
  picklist,
  pipe,
  string,
} from 'valibot';
import { QueryBooleanSchema } from '../browser-pools/pool-requests.js';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { InstanceFilePathSchema } from '../files/files.js';

/** Longest line a log stream sends, in bytes: the rest of a longer line is left out (`truncated`). */
export const MAX_LOG_LINE_BYTES = 64 * 1024;

/**
 * The parts of a session's own service log (`source=supervisor`): `browser`, what the browser
 * printed; `service`, what the service did about the session. `chromium` is another name for
 * `browser`, as peer services call it.
 */
export const SUPERVISOR_PROCESSES = ['browser', 'service', 'chromium'] as const;

/** Query of GET /browsers/{id}/logs/stream. */
export const LogStreamQuerySchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ requestObject({
    source: /* @__PURE__ */ described(
      /* @__PURE__ */ picklist(['path', 'supervisor'], 'must be path or supervisor'),
      'path: a file on the instance; supervisor: the session’s own service log',
    ),
    path: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(InstanceFilePathSchema),
      'the file to stream, absolute (source=path)',
    ),
    follow: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(QueryBooleanSchema, true),
      'true (the default): start at the end and wait for more lines; false: every line there is, then the end',
    ),
    supervisor_process: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(
        /* @__PURE__ */ picklist(SUPERVISOR_PROCESSES, 'must be browser, service or chromium'),
      ),
      'only this part of the service log (source=supervisor): browser or service; both when absent',
    ),
  }),
  /* @__PURE__ */ forward(
    /* @__PURE__ */ partialCheck(
      [['source'], ['path']],
      (query) => query.source !== 'path' || query.path !== undefined,
      'path is required when source is path',
    ),
    ['path'],
  ),
);

/** What a log stream asks for, as a caller writes it. */
export type LogStreamInput = InferInput<typeof LogStreamQuerySchema>;

/** One line of a log stream. */
export const LogEventSchema = /* @__PURE__ */ object({
  event: /* @__PURE__ */ described(/* @__PURE__ */ literal('log'), 'always log'),
  timestamp: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string(),
      /* @__PURE__ */ check((value) => !Number.isNaN(Date.parse(value)), 'must be a date'),
    ),
    'when the line was written (service log) or read (a file), RFC 3339',
  ),
  message: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the line, without its newline'),
  truncated: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    `true when the line was longer than ${MAX_LOG_LINE_BYTES} bytes and only its start is sent`,
  ),
});

/** One line of a log stream. */
export type LogEvent = InferOutput<typeof LogEventSchema>;
