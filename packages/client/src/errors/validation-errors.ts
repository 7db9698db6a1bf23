import type { ErrorDetail } from '@x/types';
import { XError } from './x-error.js';

/** The call's input broke the operation's rules; nothing was sent. `details` name each field. */
export class InputValidationError extends XError {
  static override readonly kind: string = 'InputValidationError';
  /** One entry per problem, each naming the field (`delay: must be >= 0`). */
  readonly details: ErrorDetail[];

  constructor(operationName: string, details: ErrorDetail[]) {
    const list = details.map((detail) => detail.message).join('; ');
    super('invalid_input', `Invalid input for ${operationName}: ${list}`);
    this.details = details;
  }
}

/** The server answered, but not as the contract says: an unexpected status or a malformed body. */
export class ResponseValidationError extends XError {
  static override readonly kind: string = 'ResponseValidationError';
  readonly status: number;
  readonly requestId: string | undefined;
  /** What was wrong, one entry per problem. */
  readonly details: ErrorDetail[];

  constructor(
    message: string,
    context: { status: number; requestId: string | undefined; details?: ErrorDetail[] },
  ) {
    super('invalid_response', message);
    this.status = context.status;
    this.requestId = context.requestId;
    this.details = context.details ?? [];
  }
}
