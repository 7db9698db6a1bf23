import { HEADERS, type Operation, operations } from '@x/types';
import { ConfigurationError } from '../errors/x-error.js';
import { prepareRequest } from '../request/prepare-request.js';
import { readResponse } from '../request/read-response.js';
import { createTransport, type Transport } from '../request/send.js';
import { CallPromise, type WithResponse } from './call-promise.js';
import type { ClientMethods } from './client-types.js';
import type { CallOptions, ClientOptions } from './options.js';

/** A client of the service: one method per operation, grouped as the API is. */
export type Client = ClientMethods;

/** Runs one operation: validate, send (with retries), read and validate the answer. */
async function callOperation(
  transport: Transport,
  operation: Operation,
  input: unknown,
  options: CallOptions | undefined,
): Promise<WithResponse<unknown>> {
  const prepared = prepareRequest(operation, input);
  const response = await transport.send(operation, prepared, options);
  const value = await readResponse(operation, response, options?.signal);
  const hasOutcomes = Object.keys(operation.responses).length > 1;
  return {
    data: hasOutcomes ? { status: response.status, value } : value,
    response,
    status: response.status,
    requestId: response.headers.get(HEADERS.requestId) ?? undefined,
  };
}

function assertOptions(options: ClientOptions): void {
  if (!options || typeof options.token !== 'string' || options.token.trim() === '') {
    throw new ConfigurationError(
      'No API token: pass `token` to createClient (in Node, or set XB_TOKEN).',
    );
  }
  if (typeof options.baseUrl !== 'string' || !URL.canParse(options.baseUrl)) {
    throw new ConfigurationError(
      `No valid base URL: pass \`baseUrl\` to createClient (in Node, or set XB_BASE_URL); got ${JSON.stringify(options.baseUrl)}.`,
    );
  }
}

/**
 * Creates a client. Every method checks its input before sending, retries what is safe to
 * retry, and validates the answer against the operation catalog.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', token });
 * const pool = await client.browserPools.get({ id_or_name: 'checkout' });
 */
export function createClient(options: ClientOptions): Client {
  assertOptions(options);
  const transport = createTransport(options);
  const root: Record<string, unknown> = {};
  for (const operation of operations) {
    const path = operation.name.split('.');
    const method = path.pop() as string;
    let group = root;
    for (const segment of path) {
      group[segment] ??= {};
      group = group[segment] as Record<string, unknown>;
    }
    group[method] = (input?: unknown, callOptions?: CallOptions) =>
      new CallPromise(callOperation(transport, operation, input, callOptions));
  }
  return root as Client;
}
