import {
  array,
  type InferInput,
  type InferOutput,
  maxLength,
  minLength,
  object,
  optional,
  picklist,
  pipe,
  string,
} from 'valibot';
import { BrowserSessionSchema } from '../browsers/browser-session.js';
import { described } from '../common/describe.js';
import { pageQueryEntries } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { TimestampSchema } from '../common/scalars.js';

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
    `the action's input, usually JSON text, ≤ ${MAX_INVOCATION_PAYLOAD} characters`,
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
