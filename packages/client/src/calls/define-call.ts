import { CallPromise, type WithResponse } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import { prepareRequest } from '../request/prepare-request.js';
import { readResponse } from '../request/read-response.js';
import { requestIdOf } from '../request/request-id.js';
import type { CallParts } from './call-parts.js';
import type { Route } from './route.js';

export type { CallChecks, CallParts } from './call-parts.js';

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

/**
 * Runs one call: prepare (and check, when asked), send with retries, read (and check) the
 * answer. Its checks are its own (`checked`), else its core's (`ClientOptions.checks`), if any.
 */
export async function runCall(
  core: Core,
  route: Route,
  parts: CallParts,
  input: unknown,
  options: CallOptions | undefined,
): Promise<WithResponse<unknown>> {
  const checks = parts.checks ? undefined : core.options.checks?.(route);
  const used = checks ? { ...parts, checks } : parts;
  const prepared = prepareRequest(route, input, used);
  const response = await core.transport.send(route, prepared, options);
  const value = await readResponse(route, response, options?.signal, used);
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
