import { INVALID_INPUT } from '@x/types';
import type { BodyEncoder, CallParts, EncodedBody } from '../calls/call-parts.js';
import type { ErrorDetail } from '../calls/error-body.js';
import type { Route } from '../calls/route.js';

import { InputValidationError } from '../errors/validation-errors.js';

/** A call's input, split into what goes in the path, the query and the body. */
export interface PreparedRequest {
  /** Path and query string, relative to the base URL. */
  readonly pathAndQuery: string;
  /** The JSON body, when the call sends one. */
  readonly json: unknown;
  /** Any other body, when the call sends one. */
  readonly encoded: EncodedBody | undefined;
  /** How long the server may legitimately take, from the catalog. */
  readonly serverTimeMs: number;
}

/**
 * Splits a call's input into path, query and body, after its checks when it has them. What is
 * checked here either way: the input is an object, the path parameters are given (a name made
 * only of dots would name another resource), an operation without a body gets no other field.
 * Every problem is reported at once; nothing reaches the network unless all of it is right.
 */
export function prepareRequest(route: Route, rawInput: unknown, parts: CallParts): PreparedRequest {
  const fail = (details: ErrorDetail[]) => new InputValidationError(route.name, details);
  if (rawInput !== undefined && (typeof rawInput !== 'object' || rawInput === null)) {
    throw fail([{ code: INVALID_INPUT, message: 'input must be an object' }]);
  }
  const input = (rawInput ?? {}) as Record<string, unknown>;
  parts.checks?.input(input);
  const query = route.query ?? [];
  const details: ErrorDetail[] = [];
  const problem = (message: string) => {
    details.push({ code: INVALID_INPUT, message });
    return '';
  };
  const body: Record<string, unknown> = {};
  let hasBody = false;
  for (const key in input) {
    if (input[key] === undefined || route.path.includes(`{${key}}`) || query.includes(key))
      continue;
    if (route.body) {
      body[key] = input[key];
      hasBody = true;
    } else problem(`${key}: is not a known field`);
  }
  let pathAndQuery = route.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = input[name];
    if (typeof value === 'string' && value !== '' && value !== '.' && value !== '..') {
      return encodeURIComponent(value);
    }
    return problem(`${name}: must be a non-empty string`);
  });
  for (const key of query) {
    const value = input[key];
    if (value === undefined) continue;
    pathAndQuery += `${pathAndQuery.includes('?') ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
  }

  let json: unknown;
  let encoded: EncodedBody | undefined;
  // A body that may be absent is left out when no field is given; the server applies its
  // defaults. Otherwise the fields are sent as an object, even an empty one.
  if (route.body === 'json' && (hasBody || !route.bodyOptional)) json = body;
  else if (route.body && route.body !== 'json') {
    // The generator gives every function of an upload its encoder.
    encoded = (parts.encodeBody as BodyEncoder)(route, body, details);
  }
  if (details.length > 0) throw fail(details);

  const serverTimeMs = (route.serverTimeMs as ((body: unknown) => number) | undefined)?.(json);
  return {
    pathAndQuery,
    json,
    encoded,
    // Past 1e9 ms (11 days) is no wait but a bad field, which the service names; a timer
    // cannot be set for it, and the attempt's time-out must stay one.
    serverTimeMs: (serverTimeMs as number) > 0 ? Math.min(serverTimeMs as number, 1e9) : 0,
  };
}
