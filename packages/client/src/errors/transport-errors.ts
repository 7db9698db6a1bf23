import { XError } from './x-error.js';

/** The request never got an answer: refused, reset or unreachable. */
export class ConnectionError extends XError {
  static override readonly kind: string = 'ConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('connection_error', message, options);
  }
}

/** An attempt, or the call as a whole, took longer than its time-out. */
export class TimeoutError extends XError {
  static override readonly kind: string = 'TimeoutError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('timeout', message, options);
  }
}

/** The caller aborted the call through its AbortSignal. */
export class AbortError extends XError {
  static override readonly kind: string = 'AbortError';
  constructor(message = 'The call was aborted.', options?: { cause?: unknown }) {
    super('aborted', message, options);
  }
}
