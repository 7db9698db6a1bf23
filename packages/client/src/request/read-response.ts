import type { BodyReader, CallParts } from '../calls/call-parts.js';
import type { ResponseKind, Route } from '../calls/route.js';
import { ResponseValidationError } from '../errors/validation-errors.js';
import { requestIdOf } from './request-id.js';

/**
 * The kind of answer a status carries, or for a bodiless operation any other 2xx (client liberal;
 * only success statuses reach here).
 */
function kindOf(route: Route, status: number): ResponseKind | undefined {
  return (
    route.responses[status] ??
    (status < 300 && Object.values(route.responses).every((kind) => kind === 'none')
      ? 'none'
      : undefined)
  );
}

/**
 * Turns a success response into the value the route promises for its status (checked against
 * the schema when the call has checks). An undescribed status or a body that is not JSON is a
 * ResponseValidationError, never a silent `any`.
 */
export async function readResponse(
  route: Route,
  response: Response,
  signal: AbortSignal | undefined,
  parts: CallParts,
): Promise<unknown> {
  const kind = kindOf(route, response.status);
  const fail = (message: string) =>
    new ResponseValidationError(`${route.name}: ${message}`, {
      status: response.status,
      requestId: requestIdOf(response.headers),
    });
  if (kind === undefined || kind === 'none') {
    await response.body?.cancel();
    if (kind) return undefined;
    throw fail(`unexpected status ${response.status}`);
  }
  const checks = parts.checks;
  if (kind === 'json') {
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw fail(`the body is not JSON: ${text.slice(0, 100)}`);
    }
    return checks ? checks.answer(body, response.status, response) : body;
  }
  // The generator gives every function of a binary or streamed answer its reader.
  return (parts.readBody as BodyReader)(
    kind,
    response,
    signal,
    checks && ((value: unknown) => checks.event(value, response)),
  );
}
