import { type ErrorCode, type ErrorDetail, errorBody, statusOfErrorCode } from '@x/types';

/** `x-should-retry`: whether a client should send the call again (Stainless SDKs obey it). */
const SHOULD_RETRY_HEADER = 'x-should-retry';

/**
 * An answer with an Error body, thrown by the service model and the request pipeline. The status
 * follows from the code, as the contract's table has it.
 */

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: readonly ErrorDetail[] | undefined;
  /** Headers sent with the error, such as `Allow` or `Retry-After`. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: readonly ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.status = statusOfErrorCode(code);
    this.details = options.details;
    // A conflict is the state of things, not a passing failure: sending the same call again
    // changes nothing, so SDKs that retry 409 by default (Stainless's) are told not to.
    this.headers =
      code === 'conflict'
        ? { [SHOULD_RETRY_HEADER]: 'false', ...options.headers }
        : (options.headers ?? {});
  }

  /** The Error body of this answer. */
  body() {
    return errorBody(this.code, this.message, this.details);
  }
}
