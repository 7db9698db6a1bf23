import type {
  CatalogOperation,
  OperationBody,
  OperationName,
  OperationPathParams,
  OperationQuery,
  Page,
} from '@x/types';
import type { Caller } from './pipeline/auth.js';

/**
 * A value answered as JSON: anything but a promise (a model method that answers later must be
 * awaited before its value is answered).
 */
export type JsonAnswer = string | number | boolean | null | (object & { readonly then?: never });

/**
 * What a handler answers: JSON, bytes (a Blob of a file is streamed), an event stream, a stream of
 * bytes, or no body.
 */
export type HandlerResult =
  | { status: number; json: JsonAnswer; headers?: Record<string, string> }
  | {
      status: number;
      bytes: Uint8Array | Blob;
      contentType: string;
      headers?: Record<string, string>;
    }
  | { status: number; events: ReadableStream<Uint8Array> }
  | {
      status: number;
      /** Bytes sent as they come (a file, a zip being packed); `length` when known ahead. */
      stream: ReadableStream<Uint8Array>;
      contentType: string;
      length?: number;
      headers?: Record<string, string>;
    }
  | { status: 204 | 200 | 201 };

/** The answer of a paginated list: the page's records, and `X-Has-More`/`X-Next-Offset`. */
export function pageAnswer<T>(page: Page<T>): HandlerResult;
export function pageAnswer<T>(page: Promise<Page<T>>): Promise<HandlerResult>;
export function pageAnswer<T>(
  page: Page<T> | Promise<Page<T>>,
): HandlerResult | Promise<HandlerResult> {
  if (page instanceof Promise) return page.then((found) => pageAnswer(found));
  return { status: 200, json: page.items, headers: page.headers };
}

/** The operation of the catalog with this name. */
export type OperationNamed<N extends OperationName> = Extract<CatalogOperation, { name: N }>;

/** What a handler is given: the validated request, and the implementation's own runtime. */
export interface HandlerContext<N extends OperationName, TRuntime> {
  readonly operation: OperationNamed<N>;
  /** Decoded, validated path parameters. */
  readonly params: OperationPathParams<OperationNamed<N>>;
  /** Validated query, defaults applied. */
  readonly query: OperationQuery<OperationNamed<N>>;
  /** Validated body, defaults applied. */
  readonly body: OperationBody<OperationNamed<N>>;
  /** Scheme, host and port the call arrived at: where URLs in answers point. */
  readonly origin: string;
  /** Aborts when the caller goes away. */
  readonly signal: AbortSignal;
  readonly runtime: TRuntime;
  /** Who calls: the key, what it reaches, whether it may only read. */
  readonly caller: Caller;
  /** The project the call acts in (the default project for an organization operation). */
  readonly project: string;
  /** The node of a cluster the call arrived at, when another node passed it on to this one. */
  readonly receivedBy?: string | undefined;
}

/** Carries out one operation. */
export type Handler<N extends OperationName, TRuntime> = (
  context: HandlerContext<N, TRuntime>,
) => HandlerResult | Promise<HandlerResult>;

/** One handler for every operation of the catalog: a new operation fails to compile until it has one. */
export type HandlerTable<TRuntime> = { [N in OperationName]: Handler<N, TRuntime> };
