import { IDEMPOTENCY_KEY_HEADER, PROJECT_HEADER } from '@x/types';
import ky, { HTTPError, isNetworkError, isTimeoutError, type KyInstance, type Options } from 'ky';
import type { ErrorBody, ErrorDetail } from '../calls/error-body.js';
import type { Route } from '../calls/route.js';
import type { CallOptions, ClientOptions, Logger } from '../client/options.js';
import { DEFAULTS, LOG_LEVELS } from '../client/options.js';
import { apiErrorFor } from '../errors/api-errors.js';
import { AbortError, ConnectionError, TimeoutError } from '../errors/transport-errors.js';
import { USER_AGENT } from '../version.js';
import type { PreparedRequest } from './prepare-request.js';
import { requestIdOf } from './request-id.js';

/** Statuses worth another attempt: the server may answer differently next time. */
const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];

/** Longest single wait a Retry-After header may ask for, in milliseconds. */
const MAX_RETRY_AFTER_MS = 60_000;

/** The HTTP side of a client: one ky instance with the client's settings and hooks. */
export interface Transport {
  send(
    route: Route,
    prepared: PreparedRequest,
    callOptions: CallOptions | undefined,
  ): Promise<Response>;
}

/**
 * Hooks that report each request and response (`debug`) and each retry (`warn`) to the logger,
 * keeping only messages at `logLevel` or more urgent; none when nothing is to be logged.
 */
function loggingHooks({ logger, logLevel }: ClientOptions): Options['hooks'] {
  const level = LOG_LEVELS.indexOf(logLevel ?? (logger ? 'debug' : 'off'));
  if (level <= 0) return {};
  const target: Logger = logger ?? console;
  const log = (name: 'warn' | 'debug', message: string, request: Request, fields: object) => {
    if (LOG_LEVELS.indexOf(name) <= level) {
      target[name]?.(message, { method: request.method, url: request.url, ...fields });
    }
  };
  return {
    beforeRequest: [
      ({ request, retryCount }) => log('debug', 'request', request, { attempt: retryCount + 1 }),
    ],
    beforeRetry: [
      ({ request, error, retryCount }) =>
        log('warn', 'retrying', request, { retry: retryCount, reason: error.message }),
    ],
    afterResponse: [
      ({ request, response }) =>
        log('debug', 'response', request, {
          status: response.status,
          requestId: requestIdOf(response.headers),
        }),
    ],
  };
}

/** The most specific reason in an error's cause chain: a system code such as ECONNREFUSED. */
function rootCause(error: unknown): string {
  let reason = String(error);
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    reason = typeof code === 'string' ? code : current.message;
  }
  return reason;
}

/** Whether a value may be an error detail: an object (its code and message are optional). */
function isDetail(value: unknown): value is ErrorDetail {
  return typeof value === 'object' && value !== null;
}

/**
 * The Error body of an error response: as sent when it has the Error shape (a code and a
 * message), with its details and inner error when those have theirs. Otherwise (a proxy's page,
 * a bare status) code `http_error`, which says the service's own error model did not answer,
 * and the start of the text as the message; the class and `status` still follow the status.
 */
function errorBodyOf(data: unknown, response: Response): ErrorBody {
  const { code, message, details, inner_error } = (data ?? {}) as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') {
    const text = typeof data === 'string' ? data.trim().slice(0, 200) : '';
    return {
      code: 'http_error',
      message: text || response.statusText || `HTTP ${response.status}`,
    };
  }
  return {
    code,
    message,
    ...(Array.isArray(details) && details.every(isDetail) ? { details } : {}),
    ...(isDetail(inner_error) ? { inner_error } : {}),
  };
}

/**
 * Turns what ky throws into this package's errors, naming the call (`route`, `url`) and the
 * limit it passed: `init` holds its time-outs when it had its own, `timeout` the client's.
 */
function translateError(
  error: unknown,
  signal: AbortSignal | undefined,
  route: Route,
  url: string,
  init: Options,
  timeout: number,
  startedAt: number,
): unknown {
  if (signal?.aborted) return new AbortError(undefined, { cause: error });
  if (error instanceof HTTPError) {
    const { response } = error;
    const body = errorBodyOf(error.data, response);
    return apiErrorFor({ status: response.status, body, headers: response.headers });
  }
  const { name: operation, method } = route;
  const facts = { cause: error, operation, method, url };
  if (isTimeoutError(error)) {
    // ky says only that it timed out: the whole call's limit is the one passed when it ran so long.
    const totalMs = init.totalTimeout as number | undefined;
    const isTotal = totalMs !== undefined && performance.now() - startedAt >= totalMs - 5;
    const limitMs = isTotal ? totalMs : ((init.timeout as number | undefined) ?? timeout);
    const limit = isTotal ? 'totalTimeout' : 'timeout';
    return new TimeoutError(
      `${operation}: ${method} ${url} got no answer in time (${limit} ${limitMs} ms, for ${isTotal ? 'the whole call' : 'an attempt'}).`,
      { ...facts, limit, limitMs },
    );
  }
  return isNetworkError(error) || error instanceof TypeError
    ? new ConnectionError(
        `${operation}: could not reach ${method} ${url} (${rootCause(error)}).`,
        facts,
      )
    : error;
}

/** Creates the transport: base URL, auth, retries, time-outs and logging in one place. */
export function createTransport(
  options: Required<Pick<ClientOptions, 'baseUrl' | 'token'>> & ClientOptions,
): Transport {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
  const timeout = options.timeout ?? DEFAULTS.timeout;
  // Everything a call usually sends the same way is set once here: ky then merges nothing for a
  // call that changes nothing (most of them), which keeps a call's cost close to ky's own.
  const http: KyInstance = ky.create({
    // ky takes an undefined fetch as the global one.
    fetch: options.fetch,
    headers: {
      'user-agent': USER_AGENT,
      ...options.headers,
      ...(options.project ? { [PROJECT_HEADER]: options.project } : {}),
      authorization: `Bearer ${options.token}`,
    },
    hooks: loggingHooks(options),
    timeout,
    retry: retryRules(maxRetries),
  });

  return {
    async send(route, prepared, callOptions) {
      const init: Options = { method: route.method };
      const headers: Record<string, string> = { ...callOptions?.headers };
      if (prepared.json !== undefined) init.json = prepared.json;
      const encoded = prepared.encoded;
      if (encoded) {
        Object.assign(init, encoded.init(callOptions));
        headers['content-type'] = encoded.contentType;
      }
      const isActingPost = route.method === 'POST' && route.write;
      if (isActingPost) {
        headers[IDEMPOTENCY_KEY_HEADER] = callOptions?.idempotencyKey ?? crypto.randomUUID();
      }
      // A call without headers of its own leaves ky nothing to merge (most calls).
      if (callOptions?.headers || encoded || isActingPost) init.headers = headers;
      // GET and DELETE are safe to repeat; a POST only with its idempotency key and a JSON body (an
      // upload is streamed once). PATCH and PUT are never repeated (a repeated move or delete_file
      // would answer 404 for what the first attempt did).
      const isRetryable =
        route.method === 'GET' || route.method === 'DELETE' || (isActingPost && !encoded);
      const retries = isRetryable ? (callOptions?.maxRetries ?? maxRetries) : 0;
      if (retries !== maxRetries) init.retry = retryRules(retries);
      if (callOptions?.timeout !== undefined || prepared.serverTimeMs > 0) {
        init.timeout = (callOptions?.timeout ?? timeout) + prepared.serverTimeMs;
      }
      const totalTimeout = callOptions?.totalTimeout ?? options.totalTimeout;
      if (totalTimeout !== undefined) init.totalTimeout = totalTimeout + prepared.serverTimeMs;
      const signal = callOptions?.signal;
      if (signal) init.signal = signal;
      const url = baseUrl + prepared.pathAndQuery;
      const startedAt = performance.now();
      try {
        return await http(url, init);
      } catch (error) {
        throw translateError(error, signal, route, url, init, timeout, startedAt);
      }
    },
  };
}

/** When ky tries again: up to `limit` times, on the statuses worth it, with capped backoff. */
function retryRules(limit: number): Options['retry'] {
  return {
    limit,
    methods: ['get', 'delete', 'post'],
    statusCodes: RETRY_STATUSES,
    afterStatusCodes: RETRY_STATUSES,
    maxRetryAfter: MAX_RETRY_AFTER_MS,
    backoffLimit: 8_000,
    jitter: true,
    retryOnTimeout: true,
  };
}
