import type { ErrorDetail } from '../calls/error-body.js';
import { XError } from './x-error.js';

/** The call's input broke the operation's rules; nothing was sent. `details` name each field. */
export class InputValidationError extends XError {
  static override readonly kind: string = 'InputValidationError';
  /** One entry per problem, each naming the field (`delay: must be >= 0`). */
  declare readonly details: ErrorDetail[];

  constructor(operationName: string, details: ErrorDetail[]) {
    const list = details.map((detail) => detail.message).join('; ');
    super('invalid_input', `Invalid input for ${operationName}: ${list}`, undefined, { details });
  }
}

/** The server answered, but not as the contract says: an unexpected status or a malformed body. */
export class ResponseValidationError extends XError {
  static override readonly kind: string = 'ResponseValidationError';
  declare readonly status: number;
  declare readonly requestId: string | undefined;
  /** What was wrong, one entry per problem. */
  declare readonly details: ErrorDetail[];

  constructor(
    message: string,
    {
      status,
      requestId,
      details = [],
    }: { status: number; requestId: string | undefined; details?: ErrorDetail[] },
  ) {
    super('invalid_response', message, undefined, { status, requestId, details });
  }
}
