import { type ClientMethods, operationFunctions } from '../areas/index.js';
import { definitionOf } from '../calls/define-call.js';
import { type Core, createCore } from './core.js';
import type { CallOptions, ClientOptions } from './options.js';

/** A client of the service: one method per operation, grouped as the API is. */
export interface Client extends ClientMethods {
  /** The core its methods call through (the operation functions take it too). */
  readonly core: Core;
  /** A new client with these options over this one's (this one is left as it is). */
  withOptions(options: Partial<ClientOptions>): Client;
}

type OperationFunction = (core: Core, input?: unknown, options?: CallOptions) => unknown;

/** Where each operation function sits in a client (`browsers.computer.type`), found once. */
let places: readonly (readonly [path: readonly string[], call: OperationFunction])[] | undefined;

function placesOfFunctions() {
  places ??= operationFunctions.map((call) => {
    const name = definitionOf(call)?.route.name as string;
    return [name.split('.'), call as OperationFunction] as const;
  });
  return places;
}

function clientOf(core: Core): Client {
  const root: Record<string, unknown> = {
    core,
    withOptions: (options: Partial<ClientOptions>) => clientOf(core.withOptions(options)),
  };
  for (const [path, call] of placesOfFunctions()) {
    let group = root;
    for (const segment of path.slice(0, -1)) {
      group[segment] ??= {};
      group = group[segment] as Record<string, unknown>;
    }
    group[path[path.length - 1] as string] = (input?: unknown, options?: CallOptions) =>
      call(core, input, options);
  }
  return root as unknown as Client;
}

/**
 * Creates a client with every operation as a method: each is the operation's function (see
 * `createCore`) bound to the client's core, so a method and a function do the same thing. Calls
 * retry what is safe to retry and answer typed errors; pass `checks: catalogChecks` to have every
 * input and answer checked locally against the operation catalog too.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', token });
 * const pool = await client.browserPools.get({ id_or_name: 'checkout' });
 * for await (const browser of client.browsers.list()) console.log(browser.session_id);
 */
export function createClient(options: ClientOptions): Client {
  return clientOf(createCore(options));
}
