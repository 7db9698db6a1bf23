import { ErrorSchema, HEADERS, type Operation } from '@x/types';
import ky, { HTTPError, isNetworkError, isTimeoutError, type KyInstance, type Options } from 'ky';
import { safeParse } from 'valibot';
import type { CallOptions, ClientOptions, Logger } from '../client/options.js';
import { DEFAULTS, LOG_LEVELS } from '../client/options.js';
import { apiErrorFor, fallbackErrorBody } from '../errors/api-errors.js';
import { AbortError, ConnectionError, TimeoutError } from '../errors/transport-errors.js';
import { USER_AGENT } from '../version.js';
import type { PreparedRequest } from './prepare-request.js';

/** Statuses worth another attempt: the server may answer differently next time. */
const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];

/** Longest single wait a Retry-After header may ask for, in milliseconds. */
const MAX_RETRY_AFTER_MS = 60_000;

/** The HTTP side of a client: one ky instance with the client's settings and hooks. */
export interface Transport {
  send(
    operation: Operation,
    prepared: PreparedRequest,
    callOptions: CallOptions | undefined,
  ): Promise<Response>;
}

/** The logger a client reports to, keeping only messages at `logLevel` or more urgent. */
function levelLogger({ logger, logLevel }: ClientOptions): Logger | undefined {
  const level = LOG_LEVELS.indexOf(logLevel ?? (logger ? 'debug' : 'off'));
  if (level <= 0) return undefined;
  const target = logger ?? console;
  const kept: Logger = {};
  for (const name of ['error', 'warn', 'info', 'debug'] as const) {
    if (LOG_LEVELS.indexOf(name) <= level && target[name]) kept[name] = target[name].bind(target);
  }
  return kept;
}

function loggingHooks(logger: Logger | undefined): Options['hooks'] {
  if (!logger) return {};
  return {
    beforeRequest: [
      ({ request, retryCount }) => {
        logger.debug?.('request', {
          method: request.method,
          url: request.url,
          attempt: retryCount + 1,
        });
      },
    ],
    beforeRetry: [
      ({ request, error, retryCount }) => {
        logger.warn?.('retrying', {
          method: request.method,
          url: request.url,
          retry: retryCount,
          reason: error.message,
        });
      },
    ],
    afterResponse: [
      ({ request, response }) => {
        logger.debug?.('response', {
          method: request.method,
          url: request.url,
          status: response.status,
          requestId: response.headers.get(HEADERS.requestId) ?? undefined,
        });
      },
    ],
  };
}

/** The most specific reason in an error's cause chain: a system code such as ECONNREFUSED. */
function rootCause(error: unknown): string {
  let reason = error instanceof Error ? error.message : String(error);
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    reason = typeof code === 'string' ? code : current.message;
  }
  return reason;
}

/** Turns what ky throws into this package's errors. */
async function translateError(error: unknown, signal: AbortSignal | undefined): Promise<unknown> {
  if (signal?.aborted) return new AbortError(undefined, { cause: error });
  if (error instanceof HTTPError) {
    const { response } = error;
    const data = error.data;
    const parsed = typeof data === 'object' ? safeParse(ErrorSchema, data) : undefined;
    const body = parsed?.success
      ? parsed.output
      : fallbackErrorBody(
          response.status,
          response.statusText,
          typeof data === 'string' ? data : '',
        );
    return apiErrorFor({ status: response.status, body, headers: response.headers });
  }
  if (isTimeoutError(error)) {
    return new TimeoutError('The server did not answer in time.', { cause: error });
  }
  if (isNetworkError(error) || error instanceof TypeError) {
    return new ConnectionError(`Could not reach the service (${rootCause(error)}).`, {
      cause: error,
    });
  }
  return error;
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
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: {
      'user-agent': USER_AGENT,
      ...options.headers,
      authorization: `Bearer ${options.token}`,
    },
    hooks: loggingHooks(levelLogger(options)),
    timeout,
    retry: retryRules(maxRetries),
  });

  return {
    async send(operation, prepared, callOptions) {
      const init: Options = { method: operation.method };
      const headers: Record<string, string> = callOptions?.headers
        ? { ...callOptions.headers }
        : {};
      let hasHeaders = callOptions?.headers !== undefined;
      let isReplayable = true;
      if (prepared.json !== undefined) init.json = prepared.json;
      const encoded = prepared.encoded;
      if (encoded) {
        init.body = encoded.body;
        headers['content-type'] = encoded.contentType;
        hasHeaders = true;
        isReplayable = encoded.isReplayable;
        // A streamed request body has to be sent half-duplex.
        if (encoded.body instanceof ReadableStream) (init as { duplex?: string }).duplex = 'half';
        const onProgress = callOptions?.onUploadProgress;
        if (onProgress) {
          const size = encoded.size;
          init.onUploadProgress = (progress) =>
            onProgress({
              transferredBytes: progress.transferredBytes,
              totalBytes: size ?? progress.totalBytes,
              percent: size ? progress.transferredBytes / size : progress.percent,
            });
        }
      }
      const isActingPost = operation.method === 'POST' && operation.access === 'write';
      if (isActingPost) {
        headers[HEADERS.idempotencyKey] = callOptions?.idempotencyKey ?? crypto.randomUUID();
        hasHeaders = true;
      }
      if (hasHeaders) init.headers = headers;
      // GET and DELETE are safe to repeat; a POST only with its idempotency key and a body that can
      // be sent again. PATCH and PUT are never repeated (a repeated move or delete_file would answer
      // 404 for what the first attempt did).
      const isRetryable =
        operation.method === 'GET' ||
        operation.method === 'DELETE' ||
        (isActingPost && isReplayable);
      const retries = isRetryable ? (callOptions?.maxRetries ?? maxRetries) : 0;
      if (retries !== maxRetries) init.retry = retryRules(retries);
      if (callOptions?.timeout !== undefined || prepared.serverTimeMs > 0) {
        init.timeout = (callOptions?.timeout ?? timeout) + prepared.serverTimeMs;
      }
      const totalTimeout = callOptions?.totalTimeout ?? options.totalTimeout;
      if (totalTimeout !== undefined) init.totalTimeout = totalTimeout + prepared.serverTimeMs;
      const signal = callOptions?.signal;
      if (signal) init.signal = signal;
      try {
        return await http(baseUrl + prepared.pathAndQuery, init);
      } catch (error) {
        throw await translateError(error, signal);
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
