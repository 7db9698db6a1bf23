import { createHash, timingSafeEqual } from 'node:crypto';
import { HEADERS, type Operation } from '@x/types';
import { ServiceError } from '../service-error.js';

/** The tokens a service accepts. */
export interface TokenSets {
  /** Tokens allowed to do everything. */
  readonly tokens: ReadonlySet<string>;
  /** Tokens allowed to read records and metrics only: 403 on acting operations and on contents. */
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

/** Whether a request carries any known token, full or read-only (compared in constant time). */
export function hasKnownToken(sets: TokenSets, request: Request): boolean {
  const token = bearerToken(request);
  return (
    token !== undefined &&
    (isKnownToken(token, sets.tokens) || isKnownToken(token, sets.readOnlyTokens))
  );
}

/** An authenticated caller: its token, and whether that token may only read. */
export interface Caller {
  readonly token: string;
  readonly isReadOnly: boolean;
}

/**
 * The caller's token, checked: 401 when missing or unknown, 403 when a read-only token calls an
 * acting operation or one that reads contents (files, output, screen, profiles, archives, videos).
 */
export function authenticate(sets: TokenSets, operation: Operation, request: Request): Caller {
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
  if (operation.access === 'contents' && !isFull) {
    throw new ServiceError(
      'forbidden',
      `This token may only read records and metrics; ${operation.name} reads what a session or a stored object holds, which takes a full token.`,
    );
  }
  return { token, isReadOnly: !isFull };
}

/**
 * A record as a read-only caller may see it: every URL that carries a jwt (`cdp_ws_url`, and
 * any other `…_url` with a `jwt` parameter) loses it, so the URL still names the endpoint but
 * drives nothing. A jwt is a key to the browser, and a read-only token must not hand one out.
 */
export function withoutSessionKeys(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutSessionKeys(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, withoutSessionKeys(item, name)]),
    );
  }
  if (typeof value !== 'string' || !key.endsWith('_url')) return value;
  const url = URL.parse(value);
  if (!url?.searchParams.has('jwt')) return value;
  url.searchParams.delete('jwt');
  return url.href;
}
