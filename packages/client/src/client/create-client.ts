import { type Operation, operations } from '@x/types';
import { checksOf } from '../calls/checked.js';
import { defineCall } from '../calls/define-call.js';
import { defineListCall } from '../calls/list-page.js';
import type { ClientMethods } from '../calls/operation-types.js';
import { routeOf } from '../calls/route.js';
import { readStreamBody } from '../streams/read-body.js';
import { encodeUploadBody } from '../uploads/encode-body.js';
import { type Core, createCore } from './core.js';
import type { CallOptions, ClientOptions } from './options.js';

/** A client of the service: one method per operation, grouped as the API is. */
export interface Client extends ClientMethods {
  /** The core its methods call through (the operation functions take it too). */
  readonly core: Core;
  /** A new client with these options over this one's (this one is left as it is). */
  withOptions(options: Partial<ClientOptions>): Client;
}

type Method = (core: Core, input?: unknown, options?: CallOptions) => unknown;

/** The function of an operation as a client method runs it: with every part, checked. */
function methodOf(operation: Operation): Method {
  const route = routeOf(operation);
  const parts = {
    encodeBody: encodeUploadBody,
    readBody: readStreamBody,
    checks: checksOf(operation),
  };
  return (route.paginated ? defineListCall(route, parts) : defineCall(route, parts)) as Method;
}

let methods: ReadonlyMap<Operation, Method> | undefined;

/** Every operation's function, made once: a client (and each withOptions) only binds them. */
function everyMethod(): ReadonlyMap<Operation, Method> {
  methods ??= new Map(operations.map((operation) => [operation, methodOf(operation)]));
  return methods;
}

function clientOf(core: Core): Client {
  const root: Record<string, unknown> = {
    core,
    withOptions: (options: Partial<ClientOptions>) => clientOf(core.withOptions(options)),
  };
  for (const [operation, method] of everyMethod()) {
    const path = operation.name.split('.');
    const name = path.pop() as string;
    let group = root;
    for (const segment of path) {
      group[segment] ??= {};
      group = group[segment] as Record<string, unknown>;
    }
    group[name] = (input?: unknown, options?: CallOptions) => method(core, input, options);
  }
  return root as unknown as Client;
}

/**
 * Creates a client with every operation as a method. Every method checks its input before
 * sending, retries what is safe to retry, and validates the answer against the operation
 * catalog. For the smallest bundle, import the operation functions instead (see `createCore`).
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', token });
 * const pool = await client.browserPools.get({ id_or_name: 'checkout' });
 * for await (const browser of client.browsers.list()) console.log(browser.session_id);
 */
export function createClient(options: ClientOptions): Client {
  return clientOf(createCore(options));
}
