import {
  array,
  boolean,
  type InferInput,
  type InferOutput,
  integer,
  literal,
  maxLength,
  maxValue,
  minLength,
  minValue,
  number,
  object,
  optional,
  picklist,
  pipe,
  string,
  union,
} from 'valibot';
import { BrowserSessionSchema } from '../browsers/browser-session.js';
import { described } from '../common/describe.js';
import { pageQueryEntries } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { TimestampSchema } from '../common/scalars.js';
import { HeartbeatEventSchema, StreamErrorEventSchema } from '../common/stream-events.js';

/** Where an invocation is in its life. */
export const InvocationStatusSchema = /* @__PURE__ */ picklist([
  'queued',
  'running',
  'succeeded',
  'failed',
]);

/** One run of an app's action; browsers created with its id belong to it. */
export const InvocationSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the invocation's id"),
  action_name: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the action run'),
  app_name: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the app whose action it is'),
  version: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the app's version"),
  status: /* @__PURE__ */ described(InvocationStatusSchema, 'queued, running, succeeded or failed'),
  started_at: /* @__PURE__ */ described(TimestampSchema, 'when it started (ISO 8601 UTC)'),
  finished_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when it ended (ISO 8601 UTC)',
  ),
  payload: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "the action's input, usually JSON text",
  ),
  output: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "the action's result, usually JSON text",
  ),
  status_reason: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'why it failed: the error the code threw, its time-out, a cancel',
  ),
});

/** One run of an app's action. */
export type Invocation = InferOutput<typeof InvocationSchema>;

// @__NO_SIDE_EFFECTS__
function label(field: string) {
  return /* @__PURE__ */ pipe(
    /* @__PURE__ */ string('must be a string'),
    /* @__PURE__ */ minLength(1, 'must not be empty'),
    /* @__PURE__ */ maxLength(255, `${field} must be at most 255 characters`),
  );
}

/** How long a sync invocation may run: past it, it fails and its code is stopped. */
export const SYNC_INVOCATION_SECONDS = 100;

/** Largest payload or output of an invocation, in characters. */
export const MAX_INVOCATION_PAYLOAD = 65_536;

const payload = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ maxLength(
    MAX_INVOCATION_PAYLOAD,
    `must be at most ${MAX_INVOCATION_PAYLOAD} characters`,
  ),
);

/** Body of POST /invocations. `payload` is the action's input, usually a JSON string. */
export const CreateInvocationBodySchema = /* @__PURE__ */ requestObject({
  action_name: /* @__PURE__ */ described(
    /* @__PURE__ */ label('action_name'),
    'the action to run, 1–255 characters',
  ),
  app_name: /* @__PURE__ */ described(
    /* @__PURE__ */ label('app_name'),
    'the app whose action it is, 1–255 characters',
  ),
  version: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ label('version'), 'latest'),
    "the app's version, 1–255 characters, default latest",
  ),
  payload: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(payload),
    `the action's input as JSON text, ≤ ${MAX_INVOCATION_PAYLOAD} characters`,
  ),
  async: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be true or false'), false),
    `answer 202 queued at once and run in the background (default: wait up to ${SYNC_INVOCATION_SECONDS} s for the result)`,
  ),
  async_timeout_seconds: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ number('must be a number'),
        /* @__PURE__ */ integer('must be a whole number'),
        /* @__PURE__ */ minValue(10, 'must be at least 10'),
        /* @__PURE__ */ maxValue(3600, 'must be at most 3600'),
      ),
      900,
    ),
    'how long an async invocation may run, 10–3600 s (default 900)',
  ),
});

/** What a create-invocation call asks for. */
export type CreateInvocationInput = InferInput<typeof CreateInvocationBodySchema>;

/** Body of PATCH /invocations/{id}: ends the invocation and deletes its browsers. */
export const UpdateInvocationBodySchema = /* @__PURE__ */ requestObject({
  status: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(['succeeded', 'failed'], 'must be succeeded or failed'),
    'how it ended: succeeded or failed',
  ),
  output: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(payload),
    `the action's result, ≤ ${MAX_INVOCATION_PAYLOAD} characters`,
  ),
});

/** What an update-invocation call asks for. */
export type UpdateInvocationInput = InferInput<typeof UpdateInvocationBodySchema>;

/** The list of a GET /invocations call. */
export const InvocationListSchema = /* @__PURE__ */ array(InvocationSchema);

/**
 * Query of GET /invocations: a page, and filters: `status`, `app_name`, `action_name` (each
 * exactly that value).
 */
export const ListInvocationsQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  status: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(InvocationStatusSchema),
    'only invocations in this status',
  ),
  app_name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ label('app_name')),
    'only invocations of this app',
  ),
  action_name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ label('action_name')),
    'only invocations of this action',
  ),
});

/** A GET /invocations query, defaults applied. */
export type InvocationListQuery = InferOutput<typeof ListInvocationsQuerySchema>;

/** Answer of GET /invocations/{id}/browsers (operation 4.5): active sessions, oldest first. */
export const InvocationBrowsersSchema = /* @__PURE__ */ object({
  browsers: /* @__PURE__ */ described(
    /* @__PURE__ */ array(BrowserSessionSchema),
    "the invocation's active sessions, oldest first",
  ),
});

/** The browsers of an invocation. */
export type InvocationBrowsers = InferOutput<typeof InvocationBrowsersSchema>;

/** An event of an invocation's stream (GET /invocations/{id}/events). */
export const InvocationEventSchema = /* @__PURE__ */ union([
  /* @__PURE__ */ object({
    event: /* @__PURE__ */ described(
      /* @__PURE__ */ literal('log'),
      "a line of the code's console",
    ),
    timestamp: /* @__PURE__ */ described(TimestampSchema, 'when'),
    message: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the line'),
  }),
  /* @__PURE__ */ object({
    event: /* @__PURE__ */ described(
      /* @__PURE__ */ literal('invocation_state'),
      'the invocation changed status',
    ),
    timestamp: /* @__PURE__ */ described(TimestampSchema, 'when'),
    invocation: /* @__PURE__ */ described(InvocationSchema, 'the invocation as it is now'),
  }),
  StreamErrorEventSchema,
  HeartbeatEventSchema,
]);

/** An event of an invocation's stream. */
export type InvocationEvent = InferOutput<typeof InvocationEventSchema>;
