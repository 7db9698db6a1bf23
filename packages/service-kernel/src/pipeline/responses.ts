import type { HandlerResult } from '../handler.js';
import { isOutOfResources, isStorageFull, refusals } from '../messages.js';
import { ServiceError } from '../service-error.js';
import type { StoredResponse } from './idempotency.js';

/** A JSON answer. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The answer for a ServiceError: its status, its Error body and its headers. */
export function errorResponse(error: ServiceError): Response {
  return jsonResponse(error.status, error.body(), { ...error.headers });
}

/** The answer a handler's result describes. */
export function toResponse(result: HandlerResult): Response {
  const headers: Record<string, string> = 'headers' in result ? { ...result.headers } : {};
  if ('json' in result) return jsonResponse(result.status, result.json, headers);
  if ('bytes' in result) {
    const { bytes } = result;
    return new Response(bytes as Uint8Array<ArrayBuffer> | Blob, {
      status: result.status,
      headers: {
        ...headers,
        'content-type': result.contentType,
        'content-length': String(bytes instanceof Blob ? bytes.size : bytes.byteLength),
      },
    });
  }
  if ('stream' in result) {
    return new Response(result.stream, {
      status: result.status,
      headers: {
        ...headers,
        'content-type': result.contentType,
        ...(result.length === undefined ? {} : { 'content-length': String(result.length) }),
      },
    });
  }
  if ('events' in result) {
    return new Response(result.events, {
      status: result.status,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    });
  }
  return new Response(null, { status: result.status });
}

/** A whole answer, read, to be kept for an idempotency key. */
export async function snapshot(response: Response): Promise<StoredResponse> {
  const body = response.body ? new Uint8Array(await response.arrayBuffer()) : undefined;
  return { status: response.status, headers: [...response.headers], body };
}

/** A kept answer, answered again; marked `Idempotent-Replayed: true` when it is a replay. */
export function fromSnapshot(stored: StoredResponse, isReplay: boolean): Response {
  const response = new Response((stored.body ?? null) as Uint8Array<ArrayBuffer> | null, {
    status: stored.status,
    headers: [...stored.headers],
  });
  if (isReplay) response.headers.set('idempotent-replayed', 'true');
  return response;
}

/**
 * The one place an error becomes an HTTP answer: a ServiceError is answered as it says; anything
 * else is reported to `onUnexpected` and answered as a plain 500 that tells the caller nothing
 * about the service's insides, but for a full disk, which is a 507, and a host out of open files,
 * processes or memory, which is a 503 with Retry-After.
 */
export function answerForError(error: unknown, onUnexpected: (error: unknown) => void): Response {
  if (error instanceof ServiceError) return errorResponse(error);
  if (isStorageFull(error)) {
    onUnexpected(error);
    return errorResponse(refusals.insufficientStorage('do this'));
  }
  if (isOutOfResources(error)) {
    onUnexpected(error);
    return errorResponse(refusals.outOfResources('do this'));
  }
  onUnexpected(error);
  return errorResponse(new ServiceError('internal_error', 'The service failed unexpectedly.'));
}
