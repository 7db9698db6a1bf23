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
export const InvocationStatusSchema = picklist(['queued', 'running', 'succeeded', 'failed']);

/** One run of an app's action; browsers created with its id belong to it. */
export const InvocationSchema = object({
  id: string(),
  action_name: string(),
  app_name: string(),
  version: string(),
  status: InvocationStatusSchema,
  started_at: TimestampSchema,
  finished_at: optional(TimestampSchema),
  payload: optional(string()),
  output: optional(string()),
});

/** One run of an app's action. */
export type Invocation = InferOutput<typeof InvocationSchema>;

// @__NO_SIDE_EFFECTS__
function label(field: string) {
  return pipe(
    string('must be a string'),
    minLength(1, 'must not be empty'),
    maxLength(255, `${field} must be at most 255 characters`),
  );
}

/** Largest payload or output of an invocation, in characters. */
export const MAX_INVOCATION_PAYLOAD = 65_536;

const payload = pipe(
  string('must be a string'),
  maxLength(MAX_INVOCATION_PAYLOAD, `must be at most ${MAX_INVOCATION_PAYLOAD} characters`),
);

/** Body of POST /invocations. `payload` is the action's input, usually a JSON string. */
export const CreateInvocationBodySchema = requestObject({
  action_name: label('action_name'),
  app_name: label('app_name'),
  version: optional(label('version'), 'latest'),
  payload: optional(payload),
});

/** What a create-invocation call asks for. */
export type CreateInvocationInput = InferInput<typeof CreateInvocationBodySchema>;

/** Body of PATCH /invocations/{id}: ends the invocation and deletes its browsers. */
export const UpdateInvocationBodySchema = requestObject({
  status: picklist(['succeeded', 'failed'], 'must be succeeded or failed'),
  output: optional(payload),
});

/** What an update-invocation call asks for. */
export type UpdateInvocationInput = InferInput<typeof UpdateInvocationBodySchema>;

/** The list of a GET /invocations call. */
export const InvocationListSchema = array(InvocationSchema);

/**
 * Query of GET /invocations: a page, and filters: `status`, `app_name`, `action_name` (each
 * exactly that value).
 */
export const ListInvocationsQuerySchema = requestObject({
  ...pageQueryEntries,
  status: optional(InvocationStatusSchema),
  app_name: optional(label('app_name')),
  action_name: optional(label('action_name')),
});

/** A GET /invocations query, defaults applied. */
export type InvocationListQuery = InferOutput<typeof ListInvocationsQuerySchema>;

/** Answer of GET /invocations/{id}/browsers (operation 4.5): active sessions, oldest first. */
export const InvocationBrowsersSchema = object({ browsers: array(BrowserSessionSchema) });

/** The browsers of an invocation. */
export type InvocationBrowsers = InferOutput<typeof InvocationBrowsersSchema>;
