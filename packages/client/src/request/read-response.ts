import { HEADERS, type Operation, type OperationResponse, validationDetails } from '@x/types';
import { safeParse } from 'valibot';
import { ResponseValidationError } from '../errors/validation-errors.js';

/**
 * Reads a binary or event-stream answer. Only operations that answer so need one, so an app
 * that never downloads or streams never bundles one.
 */
export type BodyReader = (
  described: OperationResponse,
  response: Response,
  signal: AbortSignal | undefined,
) => unknown;

/** The catalog's description of a status, or for a bodiless operation any other 2xx (client liberal). */
function responseFor(operation: Operation, status: number): OperationResponse | undefined {
  const described = operation.responses[status];
  if (described) return described;
  const kinds = Object.values(operation.responses);
  const isBodiless = kinds.length === 1 && kinds[0]?.kind === 'none';
  return isBodiless && status >= 200 && status < 300 ? { kind: 'none' } : undefined;
}

/**
 * Turns a success response into the value the catalog promises for its status, validating JSON
 * bodies and events. Anything else is a ResponseValidationError, never a silent `any`.
 */
export async function readResponse(
  operation: Operation,
  response: Response,
  signal: AbortSignal | undefined,
  readBody: BodyReader | undefined,
): Promise<unknown> {
  const requestId = response.headers.get(HEADERS.requestId) ?? undefined;
  const described = responseFor(operation, response.status);
  const fail = (message: string, details?: ReturnType<typeof validationDetails>) =>
    new ResponseValidationError(`${operation.name}: ${message}`, {
      status: response.status,
      requestId,
      ...(details ? { details } : {}),
    });
  if (!described) {
    await response.body?.cancel();
    throw fail(`unexpected status ${response.status}`);
  }
  switch (described.kind) {
    case 'none':
      await response.body?.cancel();
      return undefined;
    case 'json': {
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw fail(`the body is not JSON: ${text.slice(0, 100)}`);
      }
      const result = safeParse(described.schema, body);
      if (!result.success) {
        throw fail('the body breaks the contract', validationDetails(result.issues, 'body'));
      }
      return result.output;
    }
    default:
      if (!readBody) throw new TypeError(`${operation.name} needs a body reader`);
      return readBody(described, response, signal);
  }
}
