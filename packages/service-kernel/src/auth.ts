import { createHash, timingSafeEqual } from 'node:crypto';
import { HEADERS, type Operation } from '@x/types';
import { ServiceError } from './service-error.js';

/** The tokens a service accepts. */
export interface TokenSets {
  /** Tokens allowed to do everything. */
  readonly tokens: ReadonlySet<string>;
  /** Tokens allowed to read only: 403 on acting operations. */
  readonly readOnlyTokens: ReadonlySet<string>;
}

function bearerToken(request: Request): string | undefined {
  const header = request.headers.get(HEADERS.authorization) ?? '';
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Whether `token` is one of `known`, compared in constant time as the contract asks: both sides
 * are hashed to the same length, and every known token is compared.
 */
function isKnownToken(token: string, known: ReadonlySet<string>): boolean {
  const digest = createHash('sha256').update(token).digest();
  let isFound = false;
  for (const candidate of known) {
    if (timingSafeEqual(digest, createHash('sha256').update(candidate).digest())) isFound = true;
  }
  return isFound;
}

/**
 * The caller's token, checked: 401 when missing or unknown, 403 when a read-only token calls an
 * acting operation.
 */
export function authenticate(sets: TokenSets, operation: Operation, request: Request): string {
  const token = bearerToken(request);
  const { tokens, readOnlyTokens } = sets;
  const isFull = token !== undefined && isKnownToken(token, tokens);
  if (token === undefined || (!isFull && !isKnownToken(token, readOnlyTokens))) {
    throw new ServiceError(
      'unauthorized',
      token === undefined ? 'Missing bearer token.' : 'Unknown bearer token.',
    );
  }
  if (operation.access === 'write' && !isFull) {
    throw new ServiceError('forbidden', `This token may only read; ${operation.name} acts.`);
  }
  return token;
}
