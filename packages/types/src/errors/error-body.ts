import { array, type InferOutput, object, optional, string } from 'valibot';
import type { ErrorCode } from './error-codes.js';

/** Lower-level detail of an error; both fields optional. */
export const ErrorDetailSchema = /* @__PURE__ */ object({
  code: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  message: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
});

/** One detail of an error response. */
export type ErrorDetail = InferOutput<typeof ErrorDetailSchema>;

/** The body of every error response. */
export const ErrorSchema = /* @__PURE__ */ object({
  code: /* @__PURE__ */ string(),
  message: /* @__PURE__ */ string(),
  details: /* @__PURE__ */ optional(/* @__PURE__ */ array(ErrorDetailSchema)),
  inner_error: /* @__PURE__ */ optional(ErrorDetailSchema),
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
