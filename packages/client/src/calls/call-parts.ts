/**
 * The parts of an operation beyond JSON in and out, as types: the modules that send a call and
 * read its answer, and those that define one, all import them from here.
 */
import type { Options } from 'ky';
import type { CallOptions } from '../client/options.js';
import type { CallChecks } from './call-checks.js';
import type { ErrorDetail } from './error-body.js';
import type { Route } from './route.js';

export type { CallChecks } from './call-checks.js';

/**
 * A body other than JSON, ready for the transport: a form or a file's raw bytes. It is streamed
 * exactly once, so a call with one is never retried: to retry, the transport would have to hold
 * the whole upload in memory. Callers retry an upload with its idempotency key.
 */
export interface EncodedBody {
  readonly contentType: string;
  /** What the call sends it with: the body, half-duplex for a stream, progress reports. */
  init(callOptions: CallOptions | undefined): Options;
}

/**
 * Encodes the body of a multipart or binary operation. Problems go into `details` (each naming
 * its field); nothing of a file is read. Only operations that upload need one, so an app that
 * never uploads never bundles one.
 */
export type BodyEncoder = (
  route: Route,
  values: Record<string, unknown>,
  details: ErrorDetail[],
) => EncodedBody | undefined;

/**
 * Reads a binary or event-stream answer; `checkEvent`, when the call has checks, checks each
 * event. Only operations that answer so need one, so an app that never downloads or streams
 * never bundles one.
 */
export type BodyReader = (
  kind: 'binary' | 'event-stream',
  response: Response,
  signal: AbortSignal | undefined,
  checkEvent: ((value: unknown) => unknown) | undefined,
) => unknown;

/** What an operation needs beyond JSON in and out: an upload encoder, a stream reader, checks. */
export interface CallParts {
  readonly encodeBody?: BodyEncoder;
  readonly readBody?: BodyReader;
  readonly checks?: CallChecks;
}
