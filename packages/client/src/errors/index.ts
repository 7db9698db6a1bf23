export {
  ApiError,
  type ApiErrorContext,
  AuthenticationError,
  apiErrorFor,
  BadGatewayError,
  BadRequestError,
  ConflictError,
  GatewayTimeoutError,
  InsufficientStorageError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  parseRetryAfterSeconds,
  RateLimitError,
  ServiceUnavailableError,
  UnprocessableEntityError,
} from './api-errors.js';
export { AbortError, ConnectionError, TimeoutError } from './transport-errors.js';
export { InputValidationError, ResponseValidationError } from './validation-errors.js';
export { ConfigurationError, XError } from './x-error.js';
