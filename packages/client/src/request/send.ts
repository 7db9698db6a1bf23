import { ErrorSchema, HEADERS, type Operation } from '@x/types';
import ky, { HTTPError, isNetworkError, isTimeoutError, type KyInstance, type Options } from 'ky';
import { safeParse } from 'valibot';
import type { CallOptions, ClientOptions, Logger } from '../client/options.js';
import { DEFAULTS } from '../client/options.js';
import { apiErrorFor, fallbackErrorBody } from '../errors/api-errors.js';
import { AbortError, ConnectionError, TimeoutError } from '../errors/transport-errors.js';
import { buildMultipartBody } from '../uploads/upload-source.js';
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
  const http: KyInstance = ky.create({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { ...options.headers, authorization: `Bearer ${options.token}` },
    hooks: loggingHooks(options.logger),
  });

  return {
    async send(operation, prepared, callOptions) {
      const headers: Record<string, string> = { ...callOptions?.headers };
      let isReplayable = true;
      const init: Options = {};
      if (prepared.json !== undefined) init.json = prepared.json;
      if (prepared.form) {
        const multipart = buildMultipartBody(prepared.form);
        init.body = multipart.body;
        headers['content-type'] = multipart.contentType;
        // An upload is streamed exactly once: to retry, ky would tee the body up front, which
        // holds the whole archive in memory. Callers retry an upload with its idempotency key.
        isReplayable = false;
        // A streamed request body has to be sent half-duplex.
        if (!multipart.isReplayable) (init as { duplex?: string }).duplex = 'half';
        const onProgress = callOptions?.onUploadProgress;
        if (onProgress) {
          init.onUploadProgress = (progress) =>
            onProgress({
              transferredBytes: progress.transferredBytes,
              totalBytes: multipart.size ?? progress.totalBytes,
              percent: multipart.size
                ? progress.transferredBytes / multipart.size
                : progress.percent,
            });
        }
      }
      if (prepared.binary) {
        const { content, mediaType } = prepared.binary;
        init.body = content instanceof Uint8Array ? (content as Uint8Array<ArrayBuffer>) : content;
        headers['content-type'] = mediaType;
        // Streamed once, as an upload is: never held whole to be sent again.
        isReplayable = false;
        if (content instanceof ReadableStream) (init as { duplex?: string }).duplex = 'half';
      }
      const isActingPost = operation.method === 'POST' && operation.access === 'write';
      if (isActingPost)
        headers[HEADERS.idempotencyKey] = callOptions?.idempotencyKey ?? crypto.randomUUID();
      // GET and DELETE are safe to repeat; a POST only with its idempotency key and a body that can
      // be sent again. PATCH and PUT are never repeated (a repeated move or delete_file would answer
      // 404 for what the first attempt did).
      const isRetryable =
        operation.method === 'GET' ||
        operation.method === 'DELETE' ||
        (operation.method === 'POST' && HEADERS.idempotencyKey in headers && isReplayable);
      const maxRetries = callOptions?.maxRetries ?? options.maxRetries ?? DEFAULTS.maxRetries;
      const timeout =
        (callOptions?.timeout ?? options.timeout ?? DEFAULTS.timeout) + prepared.serverTimeMs;
      const totalTimeout = callOptions?.totalTimeout ?? options.totalTimeout;
      const signal = callOptions?.signal;
      try {
        return await http(`${baseUrl}${prepared.pathAndQuery}`, {
          ...init,
          method: operation.method,
          headers,
          timeout,
          ...(totalTimeout === undefined
            ? {}
            : { totalTimeout: totalTimeout + prepared.serverTimeMs }),
          ...(signal ? { signal } : {}),
          retry: {
            limit: isRetryable ? maxRetries : 0,
            methods: ['get', 'delete', 'post'],
            statusCodes: RETRY_STATUSES,
            afterStatusCodes: RETRY_STATUSES,
            maxRetryAfter: MAX_RETRY_AFTER_MS,
            backoffLimit: 8_000,
            jitter: true,
            retryOnTimeout: true,
          },
        });
      } catch (error) {
        throw await translateError(error, signal);
      }
    },
  };
}
