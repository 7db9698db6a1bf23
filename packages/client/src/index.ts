export * from './areas/index.js';
export type { ChecksByOperation } from './calls/call-checks.js';
export { catalogChecks, checked } from './calls/checked.js';
export {
  type AnyOperationFunction,
  type CallChecks,
  type CallParts,
  defineCall,
  type OperationCall,
} from './calls/define-call.js';
export { defineListCall, type ListPage, PagePromise } from './calls/list-page.js';
export {
  type CatalogEntry,
  type HttpMethod,
  type ResponseKind,
  type Route,
  routeOf,
} from './calls/route.js';
export { CallPromise, type WithResponse } from './client/call-promise.js';
export { type Core, createCore } from './client/core.js';
export { type Client, createClient } from './client/create-client.js';
export {
  type CallOptions,
  type ClientOptions,
  DEFAULTS,
  LOG_LEVELS,
  type Logger,
  type LogLevel,
  type UploadProgress,
} from './client/options.js';
export {
  type BrowserFetch,
  type BrowserFetchInit,
  browserFetch,
} from './curl/browser-fetch.js';
export {
  AbortError,
  ApiError,
  type ApiErrorContext,
  AuthenticationError,
  BadGatewayError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  GatewayTimeoutError,
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
export { USER_AGENT, VERSION } from './version.js';
