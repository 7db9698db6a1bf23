export { CallPromise, type WithResponse } from './client/call-promise.js';
export type {
  CallInput,
  CallResult,
  ClientMethod,
  ClientMethods,
  ResponseResult,
} from './client/client-types.js';
export { type Client, createClient } from './client/create-client.js';
export {
  type CallOptions,
  type ClientOptions,
  DEFAULTS,
  type Logger,
  type UploadProgress,
} from './client/options.js';
export {
  AbortError,
  ApiError,
  type ApiErrorContext,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  InputValidationError,
  InsufficientStorageError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  parseRetryAfterSeconds,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  XError,
} from './errors/index.js';
export type { BinaryBody } from './streams/binary-body.js';
export type { EventStream } from './streams/event-stream.js';
export type { UploadSource } from './uploads/upload-source.js';
