import { RETRY_AFTER_HEADER } from '@x/types';
import type { ErrorBody, ErrorDetail } from '../calls/error-body.js';
import { requestIdOf } from '../request/request-id.js';
import { XError } from './x-error.js';

/** What an API error carries besides its status. */
export interface ApiErrorContext {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Headers;
}

/** The server answered with an error status. The body's code and message are kept as sent. */
export class ApiError extends XError {
  static override readonly kind: string = 'ApiError';
  declare readonly status: number;
  declare readonly details: ErrorDetail[] | undefined;
  declare readonly innerError: ErrorDetail | undefined;
  /** The request id the server gave the call (`X-Request-Id`), for support and logs. */
  declare readonly requestId: string | undefined;
  declare readonly headers: Headers;

  constructor({ status, body, headers }: ApiErrorContext) {
    super(body.code, `${status} ${body.code}: ${body.message}`, undefined, {
      status,
      details: body.details,
      innerError: body.inner_error,
      requestId: requestIdOf(headers),
      headers,
    });
  }

  /** Seconds the server asked to wait (`Retry-After`, as seconds or a date), when it said. */
  get retryAfterSeconds(): number | undefined {
    return parseRetryAfterSeconds(this.headers.get(RETRY_AFTER_HEADER));
  }
}

/** 400: the server rejected the input. */
export class BadRequestError extends ApiError {
  static override readonly kind: string = 'BadRequestError';
}
/** 401: no token, or one the server does not know. */
export class AuthenticationError extends ApiError {
  static override readonly kind: string = 'AuthenticationError';
}
/** 403: the token may not do this (for example a read-only token on an acting call). */
export class PermissionDeniedError extends ApiError {
  static override readonly kind: string = 'PermissionDeniedError';
}
/** 404: no such resource. */
export class NotFoundError extends ApiError {
  static override readonly kind: string = 'NotFoundError';
}
/** 409: the resource's state forbids this now (a duplicate name, a recording already running). */
export class ConflictError extends ApiError {
  static override readonly kind: string = 'ConflictError';
}
/** 413: the body or archive is larger than the service accepts. */
export class PayloadTooLargeError extends ApiError {
  static override readonly kind: string = 'PayloadTooLargeError';
}
/** 422: an idempotency key was reused with a different body. */
export class UnprocessableEntityError extends ApiError {
  static override readonly kind: string = 'UnprocessableEntityError';
}
/** 429: too many calls; `retryAfterSeconds` says when to try again. */
export class RateLimitError extends ApiError {
  static override readonly kind: string = 'RateLimitError';
}
/** 500 and other 5xx: the server failed. */
export class InternalServerError extends ApiError {
  static override readonly kind: string = 'InternalServerError';
}
/** 502: what the browser was asked to fetch (`curl`) gave no answer, or one too large. */
export class BadGatewayError extends ApiError {
  static override readonly kind: string = 'BadGatewayError';
}
/** 504: what the browser was asked to fetch (`curl`) did not answer within its time-out. */
export class GatewayTimeoutError extends ApiError {
  static override readonly kind: string = 'GatewayTimeoutError';
}
/** 503: the service is overloaded or missing a part; `retryAfterSeconds` says when to try again. */
export class ServiceUnavailableError extends ApiError {
  static override readonly kind: string = 'ServiceUnavailableError';
}

/** 507: the server's disk is full; nothing was made, and retrying at once will not help. */
export class InsufficientStorageError extends ApiError {
  static override readonly kind: string = 'InsufficientStorageError';
}

/** Reads `Retry-After` as seconds, from a number of seconds or an HTTP date. */
export function parseRetryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (!value?.trim()) return undefined;
  const seconds = Number(value);
  // Not a number of seconds: a date (NaN when it is not one either).
  const wait = Number.isFinite(seconds) ? seconds : Math.ceil((Date.parse(value) - now) / 1000);
  return Number.isNaN(wait) ? undefined : Math.max(0, wait);
}

const CLASS_BY_STATUS: Record<number, typeof ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  502: BadGatewayError,
  503: ServiceUnavailableError,
  504: GatewayTimeoutError,
  507: InsufficientStorageError,
};

/** The error for an error response: the class for its status, carrying the body as sent. */
export function apiErrorFor(context: ApiErrorContext): ApiError {
  const ErrorClass =
    CLASS_BY_STATUS[context.status] ?? (context.status >= 500 ? InternalServerError : ApiError);
  return new ErrorClass(context);
}
