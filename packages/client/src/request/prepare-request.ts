import {
  buildPath,
  type ErrorDetail,
  INVALID_INPUT,
  type Operation,
  operationFields,
  validationDetails,
} from '@x/types';
import { safeParse } from 'valibot';
import { InputValidationError } from '../errors/validation-errors.js';

/** A body other than JSON, ready for the transport: a form or a file's raw bytes. */
export interface EncodedBody {
  readonly body: BodyInit;
  readonly contentType: string;
  /** Bytes in all, when known ahead (upload progress uses it). */
  readonly size: number | undefined;
  /** Whether it can be sent again on a retry (never, for a stream read once). */
  readonly isReplayable: boolean;
}

/**
 * Checks and encodes the body of a multipart or binary operation. Problems go into `details`
 * (each naming its field); nothing of a file is read. Only operations that upload need one, so
 * an app that never uploads never bundles one.
 */
export type BodyEncoder = (
  operation: Operation,
  values: Record<string, unknown>,
  details: ErrorDetail[],
) => EncodedBody | undefined;

/** A call's input, checked and split into what goes in the path, the query and the body. */
export interface PreparedRequest {
  /** Path and query string, relative to the base URL. */
  readonly pathAndQuery: string;
  readonly json?: unknown;
  readonly encoded?: EncodedBody;
  /** How long the server may legitimately take, from the catalog. */
  readonly serverTimeMs: number;
}

function queryString(values: Record<string, unknown>, keys: readonly string[]): string {
  let text = '';
  for (const key of keys) {
    const value = values[key];
    if (value === undefined) continue;
    text += `${text ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
  }
  return text;
}

function pick(input: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (input[key] !== undefined) picked[key] = input[key];
  return picked;
}

function check(schema: Operation['query'], values: unknown, details: ErrorDetail[]): unknown {
  if (!schema) return values;
  const result = safeParse(schema, values);
  if (result.success) return result.output;
  details.push(...validationDetails(result.issues));
  return undefined;
}

/**
 * Checks a call's input against the operation's schemas and splits it. Every problem is reported
 * at once, each naming its field; nothing reaches the network unless all of it is valid.
 */
export function prepareRequest(
  operation: Operation,
  rawInput: unknown,
  encodeBody: BodyEncoder | undefined,
): PreparedRequest {
  if (rawInput !== undefined && (typeof rawInput !== 'object' || rawInput === null)) {
    throw new InputValidationError(operation.name, [
      { code: INVALID_INPUT, message: 'input must be an object' },
    ]);
  }
  const input = (rawInput ?? {}) as Record<string, unknown>;
  const fields = operationFields(operation);
  const details: ErrorDetail[] = [];
  for (const key in input) {
    if (!fields.path.includes(key) && !fields.query.includes(key) && !fields.body.includes(key))
      details.push({ code: INVALID_INPUT, message: `${key}: is not a known field` });
  }
  const pathValues = pick(input, fields.path);
  check(operation.pathParams, pathValues, details);
  const queryValues = pick(input, fields.query);
  check(operation.query, queryValues, details);

  let json: unknown;
  let encoded: EncodedBody | undefined;
  let bodyOutput: unknown;
  const body = operation.body;
  if (body?.encoding === 'json') {
    // A body that may be absent is left out when no field is given; the server applies its
    // defaults. Otherwise the fields are sent as an object, even an empty one.
    const bodyValues = pick(input, fields.body);
    const isLeftOut =
      Object.keys(bodyValues).length === 0 && safeParse(body.schema, undefined).success;
    bodyOutput = check(body.schema, isLeftOut ? undefined : bodyValues, details);
    if (!isLeftOut) json = bodyValues;
  } else if (body) {
    if (!encodeBody) throw new TypeError(`${operation.name} needs a body encoder`);
    encoded = encodeBody(operation, pick(input, fields.body), details);
  }

  if (details.length > 0) throw new InputValidationError(operation.name, details);

  const serverTime = operation.serverTimeMs as ((body: unknown) => number) | undefined;
  const prepared: {
    pathAndQuery: string;
    json?: unknown;
    encoded?: EncodedBody;
    serverTimeMs: number;
  } = {
    pathAndQuery:
      buildPath(operation, pathValues as Record<string, string>) +
      queryString(queryValues, fields.query),
    serverTimeMs: serverTime && bodyOutput !== undefined ? serverTime(bodyOutput) : 0,
  };
  if (json !== undefined) prepared.json = json;
  if (encoded) prepared.encoded = encoded;
  return prepared;
}
