import type { Operation } from '@x/types';
import { validate } from './request-body.js';

/** A call's path parameters and query, validated against its operation, defaults applied. */
export interface CheckedCall {
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
}

/**
 * Step: validates a routed call's path parameters and query string against its operation.
 * Throws a 400 naming every field that is wrong (`path.id`, `query.limit`).
 */
export function checkPathAndQuery(
  operation: Operation,
  params: Readonly<Record<string, string>>,
  searchParams: URLSearchParams,
): CheckedCall {
  return {
    params: validate(operation.pathParams, params, 'path', 'path') as Record<string, string>,
    query: validate(
      operation.query,
      queryFields(searchParams),
      'query',
      'query parameters',
    ) as Record<string, unknown>,
  };
}

/**
 * The query of an operation that also accepts it as a JSON body: the fields the body gives
 * (checked with the query's schema) over those of the query string.
 */
export function queryWithBody(
  operation: Operation,
  query: Record<string, unknown>,
  body: unknown,
): Record<string, unknown> {
  if (!operation.acceptsQueryInBody || body === undefined) return query;
  const given = validate(operation.query, body, 'body', 'body') as Record<string, unknown>;
  const named = Object.keys(body as object);
  return { ...query, ...Object.fromEntries(named.map((key) => [key, given[key]])) };
}

/** A query's fields: a key given once is its value, a key repeated the list of its values. */
function queryFields(searchParams: URLSearchParams): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    fields[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return fields;
}
