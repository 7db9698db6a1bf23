import { ServiceError } from '@x/service-kernel';
import type { Pool, PoolClient } from 'pg';

/** Seconds a caller is told to wait while the store cannot be reached. */
export const STORE_RETRY_AFTER_SECONDS = 2;

/**
 * SQLSTATE classes and codes of a store that cannot be reached or is going away: connection
 * exceptions (08), the server shutting down or restarting (57P01–57P03), too many connections
 * (53300), a read-only replica after a fail-over (25006).
 */
const UNREACHABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);

/** Node's words for a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Whether an error says the store is out of reach now (it may be back soon), not a bad query. */
export function isStoreUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || UNREACHABLE_CODES.has(code) || NETWORK_CODES.has(code))
      return true;
  }
  // node-postgres's own words for a connection that ended or never came.
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(
    error.message,
  );
}

/** The answer while the store is out of reach: 503 with Retry-After, nothing of the URL in it. */
export function storeUnavailable(): ServiceError {
  return new ServiceError(
    'unavailable',
    `The service's store (PostgreSQL) cannot be reached just now; nothing was changed. Try again in ${STORE_RETRY_AFTER_SECONDS} seconds.`,
    { headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } },
  );
}

/** An error of a store call as the caller hears it: 503 while the store is out of reach. */
export function storeFailure(error: unknown): unknown {
  return isStoreUnreachable(error) ? storeUnavailable() : error;
}

/** What runs a query: the pool (any connection), or a transaction's own connection. */
export type Queryable = Pick<Pool | PoolClient, 'query'>;

/** The rows of one parameterized query; a store out of reach is heard as 503. */
export async function storeRows<R extends object>(
  db: Queryable,
  sql: string,
  values: unknown[] = [],
): Promise<R[]> {
  try {
    return (await db.query<R>(sql, values)).rows;
  } catch (error) {
    throw storeFailure(error);
  }
}
