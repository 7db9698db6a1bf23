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
      Object.fromEntries(searchParams),
      'query',
      'query parameters',
    ) as Record<string, unknown>,
  };
}
