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
  id: /* @__PURE__ */ string(),
  action_name: /* @__PURE__ */ string(),
  app_name: /* @__PURE__ */ string(),
  version: /* @__PURE__ */ string(),
  status: InvocationStatusSchema,
  started_at: TimestampSchema,
  finished_at: /* @__PURE__ */ optional(TimestampSchema),
  payload: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  output: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
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
  action_name: /* @__PURE__ */ label('action_name'),
  app_name: /* @__PURE__ */ label('app_name'),
  version: /* @__PURE__ */ optional(/* @__PURE__ */ label('version'), 'latest'),
  payload: /* @__PURE__ */ optional(payload),
});

/** What a create-invocation call asks for. */
export type CreateInvocationInput = InferInput<typeof CreateInvocationBodySchema>;

/** Body of PATCH /invocations/{id}: ends the invocation and deletes its browsers. */
export const UpdateInvocationBodySchema = /* @__PURE__ */ requestObject({
  status: /* @__PURE__ */ picklist(['succeeded', 'failed'], 'must be succeeded or failed'),
  output: /* @__PURE__ */ optional(payload),
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
  status: /* @__PURE__ */ optional(InvocationStatusSchema),
  app_name: /* @__PURE__ */ optional(/* @__PURE__ */ label('app_name')),
  action_name: /* @__PURE__ */ optional(/* @__PURE__ */ label('action_name')),
});

/** A GET /invocations query, defaults applied. */
export type InvocationListQuery = InferOutput<typeof ListInvocationsQuerySchema>;

/** Answer of GET /invocations/{id}/browsers (operation 4.5): active sessions, oldest first. */
export const InvocationBrowsersSchema = /* @__PURE__ */ object({
  browsers: /* @__PURE__ */ array(BrowserSessionSchema),
});

/** The browsers of an invocation. */
export type InvocationBrowsers = InferOutput<typeof InvocationBrowsersSchema>;
