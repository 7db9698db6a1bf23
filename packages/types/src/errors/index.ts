export {
  type ErrorBody,
  type ErrorDetail,
  ErrorDetailSchema,
  ErrorSchema,
  errorBody,
} from './error-body.js';
export {
  ERROR_CODES,
  ERROR_STATUS_BY_CODE,
  type ErrorCode,
  type ErrorStatus,
  errorCodeOfStatus,
  INVALID_INPUT,
  statusOfErrorCode,
} from './error-codes.js';
export { validationDetails } from './validation-details.js';
