import { ConfigurationError } from '../errors/x-error.js';
import { createTransport, type Transport } from '../request/send.js';
import type { ClientOptions } from './options.js';

/**
 * The connection every call goes through: the base URL, the token, the transport with its
 * retries and time-outs. The operation functions take it as their first argument.
 */
export interface Core {
  /** The options it was made with. */
  readonly options: Readonly<ClientOptions>;
  /** The HTTP side (internal: the operation functions send through it). */
  readonly transport: Transport;
  /** A new core with these options over this one's (the original is left as it is). */
  withOptions(options: Partial<ClientOptions>): Core;
}

function assertOptions(options: ClientOptions): void {
  if (!options || typeof options.token !== 'string' || options.token.trim() === '') {
    throw new ConfigurationError('No API token: pass `token`.');
  }
  if (typeof options.baseUrl !== 'string' || !URL.canParse(options.baseUrl)) {
    throw new ConfigurationError(`No valid baseUrl: ${options.baseUrl}`);
  }
}

/**
 * Creates the core of a modular client: import only the operations you call and pass it to
 * them, and a bundler leaves every other operation out.
 *
 * @example
 * import { createCore, getBrowserPool } from '@x/client';
 * const core = createCore({ baseUrl: 'http://127.0.0.1:8080', token });
 * const pool = await getBrowserPool(core, { id_or_name: 'checkout' });
 */
export function createCore(options: ClientOptions): Core {
  assertOptions(options);
  const settings = { ...options };
  return {
    options: settings,
    transport: createTransport(settings),
    withOptions: (more) => createCore({ ...settings, ...more }),
  };
}
