import type { CatalogOperation, OperationBody, OperationName } from '@x/types';
import type { FakeRuntime } from './runtime.js';

/** What a handler answers: JSON, bytes, an event stream, or no body. */
export type HandlerResult =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; bytes: Uint8Array; contentType: string; headers?: Record<string, string> }
  | { status: number; events: ReadableStream<Uint8Array> }
  | { status: 204 | 200 };

/** The operation of the catalog with this name. */
export type OperationNamed<N extends OperationName> = Extract<CatalogOperation, { name: N }>;

/** What a handler is given: the validated request and the fake's parts. */
export interface HandlerContext<N extends OperationName = OperationName> {
  readonly operation: OperationNamed<N>;
  /** Decoded path parameters. */
  readonly params: Record<string, string>;
  /** Validated query, defaults applied. */
  readonly query: Record<string, unknown>;
  /** Validated body, defaults applied. */
  readonly body: OperationBody<OperationNamed<N>>;
  /** Scheme, host and port the call reached the fake at: where session URLs point. */
  readonly origin: string;
  /** Aborts when the caller goes away. */
  readonly signal: AbortSignal;
  readonly runtime: FakeRuntime;
}

/** Carries out one operation against the fake's state. */
export type Handler<N extends OperationName = OperationName> = (
  context: HandlerContext<N>,
) => HandlerResult | Promise<HandlerResult>;

/** One handler for every operation of the catalog: a new operation fails to compile until it has one. */
export type HandlerTable = { [N in OperationName]: Handler<N> };
