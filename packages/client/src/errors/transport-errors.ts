import { XError } from './x-error.js';

/** Which call an error is about: its operation, method and URL. */
export interface CallContext {
  readonly operation: string;
  readonly method: string;
  readonly url: string;
}

/** The request never got an answer: refused, reset or unreachable (DNS, TLS). */
export class ConnectionError extends XError {
  static override readonly kind: string = 'ConnectionError';
  /** The operation (`browsers.list`) whose call failed, when a call failed. */
  declare readonly operation: string | undefined;
  /** Its method and URL. */
  declare readonly method: string | undefined;
  declare readonly url: string | undefined;
  constructor(message: string, options: { cause?: unknown } & Partial<CallContext> = {}) {
    const { cause: _, ...facts } = options;
    super('connection_error', message, options, facts);
  }
}

/** An attempt, or the call as a whole, took longer than its time-out. */
export class TimeoutError extends XError {
  static override readonly kind: string = 'TimeoutError';
  /** The operation (`browsers.list`) whose call timed out, when a call did. */
  declare readonly operation: string | undefined;
  /** Its method and URL. */
  declare readonly method: string | undefined;
  declare readonly url: string | undefined;
  /** Which limit it passed: one attempt's (`timeout`) or the whole call's (`totalTimeout`). */
  declare readonly limit: 'timeout' | 'totalTimeout' | undefined;
  /** That limit, in milliseconds. */
  declare readonly limitMs: number | undefined;
  constructor(
    message: string,
    options: { cause?: unknown } & Partial<CallContext> & {
        limit?: 'timeout' | 'totalTimeout';
        limitMs?: number;
      } = {},
  ) {
    const { cause: _, ...facts } = options;
    super('timeout', message, options, facts);
  }
}

/** The caller aborted the call through its AbortSignal. */
export class AbortError extends XError {
  static override readonly kind: string = 'AbortError';
  constructor(message = 'The call was aborted.', options?: { cause?: unknown }) {
    super('aborted', message, options);
  }
}
