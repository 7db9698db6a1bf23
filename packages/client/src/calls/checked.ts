import {
  type AnySchema,
  BINARY_CONTENT_KINDS,
  type ErrorDetail,
  INVALID_INPUT,
  type Operation,
  operationFields,
  operations,
  schemaEntries,
  validationDetails,
} from '@x/types';
import { safeParse } from 'valibot';
import { InputValidationError, ResponseValidationError } from '../errors/validation-errors.js';
import { requestIdOf } from '../request/request-id.js';
import { isUploadSource } from '../uploads/upload-source.js';
import type { CallChecks } from './call-checks.js';
import { type AnyOperationFunction, defineCall, definitionOf } from './define-call.js';
import { defineListCall } from './list-page.js';
import type { CatalogEntry } from './route.js';

/** The values of `keys` that are given. */
function pick(input: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (input[key] !== undefined) picked[key] = input[key];
  return picked;
}

/** What a schema sees for a file: an empty Blob in its place, so no stream is read to check it. */
function standIn(value: unknown): unknown {
  if (isUploadSource(value)) return new Blob([]);
  if (Array.isArray(value)) return value.map(standIn);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, standIn(item)]));
}

/**
 * The checks of an operation against its schemas: every input field (unknown ones too, and a
 * file field given something that is not a file), the answer of each status, each event.
 */
export function checksOf(operation: Operation): CallChecks {
  const fields = operationFields(operation);
  const streamed = Object.values(operation.responses).find((item) => item.kind === 'event-stream');
  const eventSchema = streamed?.kind === 'event-stream' ? streamed.eventSchema : undefined;
  const check = (schema: AnySchema, values: unknown, details: ErrorDetail[]) => {
    const result = safeParse(schema, values);
    if (!result.success) details.push(...validationDetails(result.issues));
  };
  const broken = (message: string, response: Response, details: ErrorDetail[]) => {
    // The problems themselves, the first few, so the message alone says what is wrong.
    const shown = details.slice(0, 3).map((detail) => detail.message);
    const more =
      details.length > shown.length ? ` (and ${details.length - shown.length} more)` : '';
    const requestId = requestIdOf(response.headers);
    return new ResponseValidationError(
      `${message}: ${shown.join('; ')}${more}${requestId ? ` (request ${requestId})` : ''}`,
      { status: response.status, requestId, details },
    );
  };
  return {
    input(input) {
      const details: ErrorDetail[] = [];
      for (const key in input) {
        if (!fields.path.includes(key) && !fields.query.includes(key) && !fields.body.includes(key))
          details.push({ code: INVALID_INPUT, message: `${key}: is not a known field` });
      }
      if (operation.pathParams) check(operation.pathParams, pick(input, fields.path), details);
      if (operation.query) check(operation.query, pick(input, fields.query), details);
      const body = operation.body;
      const values = body ? pick(input, fields.body) : {};
      if (body?.encoding === 'json') {
        // A body that may be absent is checked as absent when no field of it is given.
        const isLeftOut =
          Object.keys(values).length === 0 && safeParse(body.schema, undefined).success;
        check(body.schema, isLeftOut ? undefined : values, details);
      } else if (body) {
        const entries = schemaEntries(body.schema);
        for (const [key, value] of Object.entries(values)) {
          if (entries[key]?.type === 'blob' && !isUploadSource(value)) {
            details.push({
              code: INVALID_INPUT,
              message: `${key}: must be ${BINARY_CONTENT_KINDS}`,
            });
            values[key] = new Blob([]);
          }
        }
        check(body.schema, standIn(values), details);
      }
      if (details.length > 0) throw new InputValidationError(operation.name, details);
    },
    answer(value, status, response) {
      const described = operation.responses[status];
      if (described?.kind !== 'json') return value;
      const result = safeParse(described.schema, value);
      if (result.success) return result.output;
      throw broken(
        `${operation.name}: the ${status} answer of ${operation.method} ${operation.path} breaks the contract`,
        response,
        validationDetails(result.issues, 'body'),
      );
    },
    event(value, response) {
      if (!eventSchema) return value;
      const result = safeParse(eventSchema, value);
      if (result.success) return result.output;
      throw broken(
        `${operation.name}: an event breaks the contract`,
        response,
        validationDetails(result.issues, 'event'),
      );
    },
  };
}

/**
 * An operation function that also checks locally against the operation's schemas, as a client with
 * `checks: catalogChecks` does: its input before anything is sent (an InputValidationError naming
 * each field), its answer and each event after (a ResponseValidationError). The plain function
 * sends what it is given and lets the service check it, which keeps the schemas (and valibot)
 * out of a bundle; this brings in exactly the schemas of `operation`.
 *
 * @example
 * import { checked, createCore, getBrowserPool } from '@x/client';
 * import { getBrowserPoolOperation } from '@x/types';
 * const getPool = checked(getBrowserPool, getBrowserPoolOperation);
 * const pool = await getPool(core, { id_or_name: 'checkout' });
 */
export function checked<F extends AnyOperationFunction>(call: F, entry: CatalogEntry): F {
  const operation = entry as Operation;
  const definition = definitionOf(call);
  if (!definition || definition.route.name !== operation.name) {
    throw new TypeError(
      `checked: expected the function of ${operation.name}, got ${definition?.route.name ?? 'another function'}`,
    );
  }
  const { route, parts } = definition;
  const withChecks = { ...parts, checks: checksOf(operation) };
  return (route.paginated ? defineListCall(route, withChecks) : defineCall(route, withChecks)) as F;
}

let catalog: Map<string, Operation> | undefined;
const made = new Map<string, CallChecks>();

/**
 * The checks of every catalog operation, for a client's `checks` option: each call checks its
 * input against its operation's schemas before anything is sent, and its answer and each event
 * after, exactly as `checked` does for one function. It brings in every schema of the catalog
 * (and valibot): Node apps, tests and tools want it; a browser bundle leaves it out.
 *
 * @example
 * import { catalogChecks, createClient } from '@x/client';
 * const client = createClient({ baseUrl, token, checks: catalogChecks });
 * await client.browsers.create({ viewport: { width: -1, height: 800 } }); // InputValidationError
 */
export function catalogChecks(route: { readonly name: string }): CallChecks | undefined {
  let checks = made.get(route.name);
  if (checks) return checks;
  catalog ??= new Map(operations.map((operation) => [operation.name, operation]));
  const operation = catalog.get(route.name);
  if (!operation) return undefined;
  checks = checksOf(operation);
  made.set(route.name, checks);
  return checks;
}
