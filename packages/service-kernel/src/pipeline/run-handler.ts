import type { Operation, OperationName } from '@x/types';
import type { HandlerResult, HandlerTable, JsonAnswer } from '../handler.js';
import { type Caller, withoutSessionKeys } from './auth.js';
import { toResponse } from './responses.js';

/** A handler's input before its operation's types are known: checked, but not yet narrowed. */
export interface CallInput<TRuntime> {
  readonly operation: Operation;
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
  readonly origin: string;
  readonly signal: AbortSignal;
  readonly runtime: TRuntime;
  readonly caller: Caller;
  readonly project: string;
  readonly receivedBy?: string | undefined;
}

/**
 * Step: runs an operation's handler with its validated input and turns the result into an
 * answer. A read-only caller never receives a key to a browser: jwts are taken out of its JSON.
 */
export async function runHandler<TRuntime>(
  handlers: HandlerTable<TRuntime>,
  context: CallInput<TRuntime>,
  isReadOnly: boolean,
): Promise<Response> {
  const handler = handlers[context.operation.name as OperationName] as (
    context: unknown,
  ) => HandlerResult | Promise<HandlerResult>;
  const result = await handler(context);
  if (isReadOnly && 'json' in result) {
    return toResponse({ ...result, json: withoutSessionKeys(result.json) as JsonAnswer });
  }
  return toResponse(result);
}
