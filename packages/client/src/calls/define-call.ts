import { HEADERS, type Operation } from '@x/types';
import { CallPromise, type WithResponse } from '../client/call-promise.js';
import type { CallInput, CallResult, MethodResult } from '../client/client-types.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import { type BodyEncoder, prepareRequest } from '../request/prepare-request.js';
import { type BodyReader, readResponse } from '../request/read-response.js';

/** What an operation needs beyond JSON in and out: an upload encoder, a stream reader. */
export interface CallParts {
  readonly encodeBody?: BodyEncoder;
  readonly readBody?: BodyReader;
}

/** An operation as a function of a core; its input may be left out when every field is optional. */
export type OperationCall<T extends Operation, TResult> =
  Partial<CallInput<T>> extends CallInput<T>
    ? (core: Core, input?: CallInput<T>, options?: CallOptions) => TResult
    : (core: Core, input: CallInput<T>, options?: CallOptions) => TResult;

/** The function of one operation: what the client method of that operation returns. */
export type OperationFunction<T extends Operation> = OperationCall<T, MethodResult<T>>;

const outcomes = new WeakMap<Operation, boolean>();

/** Whether an operation has several success statuses (asked once per operation). */
function hasOutcomes(operation: Operation): boolean {
  let has = outcomes.get(operation);
  if (has === undefined) {
    has = Object.keys(operation.responses).length > 1;
    outcomes.set(operation, has);
  }
  return has;
}

/** Runs one operation: validate, send (with retries), read and validate the answer. */
export async function runCall(
  core: Core,
  operation: Operation,
  parts: CallParts,
  input: unknown,
  options: CallOptions | undefined,
): Promise<WithResponse<unknown>> {
  const prepared = prepareRequest(operation, input, parts.encodeBody);
  const response = await core.transport.send(operation, prepared, options);
  const value = await readResponse(operation, response, options?.signal, parts.readBody);
  return {
    // An operation with several success statuses resolves to { status, value }.
    data: hasOutcomes(operation) ? { status: response.status, value } : value,
    response,
    status: response.status,
    requestId: response.headers.get(HEADERS.requestId) ?? undefined,
  };
}

/**
 * Makes the function of one operation. Only what it is given is bundled with it: a JSON
 * operation carries no upload or stream code.
 */
// @__NO_SIDE_EFFECTS__
export function defineCall<const T extends Operation>(
  operation: T,
  parts: CallParts = {},
): OperationCall<T, CallPromise<CallResult<T>>> {
  return ((core: Core, input?: unknown, options?: CallOptions) =>
    new CallPromise(runCall(core, operation, parts, input, options))) as never;
}
