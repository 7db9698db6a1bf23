import { CallPromise, type WithResponse } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import { type BodyEncoder, prepareRequest } from '../request/prepare-request.js';
import { type BodyReader, readResponse } from '../request/read-response.js';
import { requestIdOf } from '../request/request-id.js';
import type { Route } from './route.js';

/**
 * Local checks of a call against its operation's schemas (see `checked`): the input before
 * anything is sent, the answer and each event after. Without them a call sends what it is given
 * and the service checks it.
 */
export interface CallChecks {
  /** Throws an InputValidationError naming every field that breaks the operation's rules. */
  input(input: Record<string, unknown>): void;
  /** The JSON answer of a status, as the schema gives it; a ResponseValidationError otherwise. */
  answer(value: unknown, status: number, response: Response): unknown;
  /** One event of an event stream, as the schema gives it; a ResponseValidationError otherwise. */
  event(value: unknown, response: Response): unknown;
}

/** What an operation needs beyond JSON in and out: an upload encoder, a stream reader, checks. */
export interface CallParts {
  readonly encodeBody?: BodyEncoder;
  readonly readBody?: BodyReader;
  readonly checks?: CallChecks;
}

/**
 * An operation as a function of a core, taking `TInput` (path, query and body fields side by
 * side); the input may be left out when every field of it is optional.
 */
export type OperationCall<TInput, TResult> =
  Partial<TInput> extends TInput
    ? (core: Core, input?: TInput, options?: CallOptions) => TResult
    : (core: Core, input: TInput, options?: CallOptions) => TResult;

/** Any operation function, whatever it takes and answers (what `checked` takes). */
// biome-ignore lint/suspicious/noExplicitAny: stands for every input type, checked by each function
export type AnyOperationFunction = (core: Core, input?: any, options?: CallOptions) => unknown;

/** What an operation function is made of, kept on it so `checked` can make it again with checks. */
export interface Definition {
  readonly route: Route;
  readonly parts: CallParts;
}

/** The key under which an operation function keeps its definition. */
const DEFINITION = '__xbDefinition';

/** The definition of an operation function, or undefined for any other function. */
export function definitionOf(call: unknown): Definition | undefined {
  return (call as { [DEFINITION]?: Definition } | undefined)?.[DEFINITION];
}

/** Keeps a function's definition on it (not enumerable: it is not part of what it does). */
// @__NO_SIDE_EFFECTS__
export function withDefinition<F extends object>(call: F, definition: Definition): F {
  return Object.defineProperty(call, DEFINITION, { value: definition });
}

/** Runs one call: prepare (and check, when asked), send with retries, read (and check) the answer. */
export async function runCall(
  core: Core,
  route: Route,
  parts: CallParts,
  input: unknown,
  options: CallOptions | undefined,
): Promise<WithResponse<unknown>> {
  const prepared = prepareRequest(route, input, parts);
  const response = await core.transport.send(route, prepared, options);
  const value = await readResponse(route, response, options?.signal, parts);
  return {
    // An operation with several success statuses resolves to { status, value }.
    data: Object.keys(route.responses).length > 1 ? { status: response.status, value } : value,
    response,
    status: response.status,
    requestId: requestIdOf(response.headers),
  };
}

/**
 * Makes the function of one operation from its route, taking `TInput` and resolving to
 * `TResult` (the generated functions name both). Only what it is given is bundled with it: a
 * JSON operation carries no upload or stream code, and no schema unless given `checks`.
 */
// @__NO_SIDE_EFFECTS__
export function defineCall<TInput = Record<string, unknown>, TResult = unknown>(
  route: Route,
  parts: CallParts = {},
): OperationCall<TInput, CallPromise<TResult>> {
  return withDefinition(
    (core: Core, input?: unknown, options?: CallOptions) =>
      new CallPromise(runCall(core, route, parts, input, options)),
    { route, parts },
  ) as never;
}
