/** Every error code of the contract with the HTTP status it is sent with. */
export const ERROR_STATUS_BY_CODE = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  bad_gateway: 502,
  unavailable: 503,
  gateway_timeout: 504,
  insufficient_storage: 507,
} as const;

/** An error code of the contract. */
export type ErrorCode = keyof typeof ERROR_STATUS_BY_CODE;

/** An HTTP status that carries an error code of the contract. */
export type ErrorStatus = (typeof ERROR_STATUS_BY_CODE)[ErrorCode];

/** Detail code of one validation problem. */
export const INVALID_INPUT = 'invalid_input';

/** Every error code of the contract. */
export const ERROR_CODES = /* @__PURE__ */ Object.keys(ERROR_STATUS_BY_CODE) as ErrorCode[];

/** The HTTP status an error code is sent with. */
export function statusOfErrorCode(code: ErrorCode): ErrorStatus {
  return ERROR_STATUS_BY_CODE[code];
}

/** The contract's error code for an HTTP status, if the contract names one. */
export function errorCodeOfStatus(status: number): ErrorCode | undefined {
  return ERROR_CODES.find((code) => ERROR_STATUS_BY_CODE[code] === status);
}
