import type { ChecksByOperation } from '../calls/call-checks.js';

/** Where the client reports what it does; every method is optional. Tokens are never passed. */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
  error?(message: string, fields?: Record<string, unknown>): void;
}

/** How much a client logs: `off` (default), `error`, `warn`, `info` or `debug` (every request). */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** The log levels, least talkative first. */
export const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/** Settings of a client. */
export interface ClientOptions {
  /** Base URL of the service, e.g. `https://api.example.com` or `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Bearer token sent on every call. */
  token: string;
  /**
   * The project every call acts in, by id or name (sent as `X-Kernel-Project-Id`). Default: the
   * token's own project for a project key, else the service's default project; in Node, the
   * `XB_PROJECT` environment variable.
   */
  project?: string;
  /** Time-out of one attempt, in milliseconds. Default 60,000. */
  timeout?: number;
  /** Time-out of a whole call, retries included, in milliseconds. Default: none. */
  totalTimeout?: number;
  /** How many times a failed call is retried. Default 2. */
  maxRetries?: number;
  /** The fetch to use. Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Headers added to every call. */
  headers?: Record<string, string>;
  /**
   * Where to report requests, retries and failures. Default: `console` when `logLevel` is set,
   * else nowhere.
   */
  logger?: Logger;
  /**
   * What to report: `debug` (each request and response), `warn` (retries), `off`. Default: `off`
   * without a logger, `debug` with one; in Node, the `XB_LOG` environment variable.
   */
  logLevel?: LogLevel;
  /**
   * Checks every call makes locally, besides the service's own: pass `catalogChecks` to have each
   * input checked against its operation's schema before anything is sent (an
   * InputValidationError naming every bad field) and each answer and event after (a
   * ResponseValidationError). Default: none, so no schema is bundled; the service checks the
   * input either way, and a bad field comes back as a BadRequestError naming it.
   */
  checks?: ChecksByOperation;
}

/** Progress of an upload. */
export interface UploadProgress {
  /** Bytes sent so far. */
  transferredBytes: number;
  /** Bytes in all, or 0 when the size is unknown (a stream). */
  totalBytes: number;
  /** Share sent, 0 to 1 (0 while the total is unknown). */
  percent: number;
}

/** Settings of one call; each overrides the client's. */
export interface CallOptions {
  /** Aborts the call, including its retries and any stream it returned. */
  signal?: AbortSignal;
  /** Time-out of one attempt, in milliseconds. */
  timeout?: number;
  /** Time-out of the whole call, retries included, in milliseconds. */
  totalTimeout?: number;
  /** How many times this call is retried. */
  maxRetries?: number;
  /** Headers added to this call. */
  headers?: Record<string, string>;
  /**
   * The `Idempotency-Key` of an acting POST. By default the client makes one per call and sends
   * the same key on every attempt; pass your own to make a call safe to repeat yourself.
   */
  idempotencyKey?: string;
  /** Called as an upload's bytes are sent. */
  onUploadProgress?: (progress: UploadProgress) => void;
}

/** Defaults of the client options. */
export const DEFAULTS = {
  timeout: 60_000,
  maxRetries: 2,
} as const;
