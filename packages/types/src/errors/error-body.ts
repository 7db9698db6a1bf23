import { array, type InferOutput, object, optional, string } from 'valibot';
import { described } from '../common/describe.js';
import type { ErrorCode } from './error-codes.js';

/** Lower-level detail of an error; both fields optional. */
export const ErrorDetailSchema = /* @__PURE__ */ object({
  code: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'machine-readable code of this problem',
  ),
  message: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'the problem, for people, naming its field',
  ),
});

/** One detail of an error response. */
export type ErrorDetail = InferOutput<typeof ErrorDetailSchema>;

/** The body of every error response. */
export const ErrorSchema = /* @__PURE__ */ object({
  code: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'machine-readable error code'),
  message: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'what went wrong, for people'),
  details: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ array(ErrorDetailSchema)),
    'one entry per problem, for validation errors',
  ),
  inner_error: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(ErrorDetailSchema),
    'the underlying error, when one caused this',
  ),
});

/** The body of an error response. */
export type ErrorBody = InferOutput<typeof ErrorSchema>;

/** Builds a valid error body; `details` and `innerError` are left out when not given. */
export function errorBody(
  code: ErrorCode,
  message: string,
  details?: readonly ErrorDetail[],
  innerError?: ErrorDetail,
): ErrorBody {
  const body: ErrorBody = { code, message };
  if (details !== undefined && details.length > 0) body.details = [...details];
  if (innerError !== undefined) body.inner_error = innerError;
  return body;
}
