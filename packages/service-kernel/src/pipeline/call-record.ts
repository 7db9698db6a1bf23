import type { OperationName } from '@x/types';

/** One call as the service received it, and how it was answered. */
export interface CallRecord {
  /** When it arrived, ISO 8601. */
  readonly at: string;
  readonly method: string;
  /** Path as sent (still percent-encoded), without the query. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Catalog name of the operation, when the call matched one. */
  operation: OperationName | undefined;
  /** Headers as received, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body: parsed JSON, the form's fields (a file as `{ filename, size, type }`), text that
   * is not JSON, or undefined when there was none.
   */
  body: unknown;
  /** Status answered; undefined when the connection was dropped. */
  status: number | undefined;
  readonly requestId: string;
  /** The injected fault that hit the call, if any. */
  fault: 'error' | 'drop' | 'truncate' | undefined;
}

/** Step: the record of a call as it arrives; routing, faults and the answer complete it. */
export function startCallRecord(
  request: Request,
  url: URL,
  requestId: string,
  at: Date,
  bodyBytes: Uint8Array | undefined,
): CallRecord {
  return {
    at: at.toISOString(),
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    operation: undefined,
    headers: Object.fromEntries(request.headers),
    body: bodyBytes && bodyBytes.byteLength > 0 ? new TextDecoder().decode(bodyBytes) : undefined,
    status: undefined,
    requestId,
    fault: undefined,
  };
}
