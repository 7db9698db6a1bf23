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

/** The token of an `Authorization: Bearer <token>` header value, if it is one. */
export function bearerOf(header: string): string | undefined {
  return /^Bearer[ ]+(\S+)\s*$/i.exec(header)?.[1];
}

function bearerToken(request: Request): string | undefined {
  return bearerOf(request.headers.get(HEADERS.authorization) ?? '');
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

/** What an API key grants, as the organization found it (by the key's hash). */
export interface KeyGrant {
  readonly keyId: string;
  readonly keyName: string;
  /** The one project it reaches; undefined: every project. */
  readonly project: string | undefined;
  readonly isReadOnly: boolean;
  /** Minted by the service for deployed code (it never deploys, nor manages keys). */
  readonly isMinted?: boolean;
}

/** Finds the API key a bearer token is, if it is one that works now. */
export type KeyLookup = (token: string) => Promise<KeyGrant | undefined>;

/** An authenticated caller: its token, who it is, and what it may do. */
export interface Caller {
  readonly token: string;
  readonly isReadOnly: boolean;
  /** An API key's id, or `op_…` (a hash of the token) for an operator's token. */
  readonly keyId: string;
  readonly keyName: string;
  readonly strategy: 'operator_token' | 'api_key' | 'session_jwt';
  /** The one project a project key reaches; undefined: every project. */
  readonly project: string | undefined;
  /** A key the service minted for deployed code: it may not deploy, nor manage keys. */
  readonly isMinted?: boolean;
}

/** The id an operator's token is known by in the audit log: a short hash, never the token. */
export function operatorKeyId(token: string): string {
  return `op_${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
}

/**
 * The caller's token, checked: an operator's token (compared in constant time) or an API key
 * (looked up by its hash, so a deleted or rotated key is refused from the next call). 401 when
 * missing or unknown, 403 when a read-only token calls an acting operation or one that reads
 * contents (files, output, screen, profiles, archives, videos).
 */
export async function authenticate(
  sets: TokenSets,
  operation: Operation,
  request: Request,
  keys?: KeyLookup,
): Promise<Caller> {
  return authorize(await identifyCaller(sets, request, keys), operation);
}

/** Who calls: an operator's token or an API key that works now; 401 for anyone else. */
export async function identifyCaller(
  sets: TokenSets,
  request: Request,
  keys?: KeyLookup,
): Promise<Caller> {
  const token = bearerToken(request);
  if (token === undefined) throw new ServiceError('unauthorized', 'Missing bearer token.');
  const caller = await identify(sets, token, keys);
  if (!caller) throw new ServiceError('unauthorized', 'Unknown bearer token.');
  return caller;
}

/**
 * What a known caller may do: 403 when a read-only one calls an acting operation or one that
 * reads contents (files, output, screen, profiles, archives, videos).
 */
export function authorize(caller: Caller, operation: Operation): Caller {
  const isFull = !caller.isReadOnly;
  if (operation.access === 'write' && !isFull) {
    throw new ServiceError('forbidden', `This token may only read; ${operation.name} acts.`);
  }
  if (operation.access === 'contents' && !isFull) {
    throw new ServiceError(
      'forbidden',
      `This token may only read records and metrics; ${operation.name} reads what a session or a stored object holds, which takes a full token.`,
    );
  }
  return caller;
}

/** Who a token is: an operator's token, an API key that works now, or nobody. */
async function identify(
  sets: TokenSets,
  token: string,
  keys: KeyLookup | undefined,
): Promise<Caller | undefined> {
  const isFull = isKnownToken(token, sets.tokens);
  if (isFull || isKnownToken(token, sets.readOnlyTokens)) {
    return {
      token,
      isReadOnly: !isFull,
      keyId: operatorKeyId(token),
      keyName: isFull ? 'operator token' : 'operator token (read-only)',
      strategy: 'operator_token',
      project: undefined,
    };
  }
  const grant = await keys?.(token);
  if (!grant) return undefined;
  return {
    token,
    isReadOnly: grant.isReadOnly,
    keyId: grant.keyId,
    keyName: grant.keyName,
    strategy: 'api_key',
    project: grant.project,
    ...(grant.isMinted === true && { isMinted: true }),
  };
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
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value; // not a URL: nothing to take a key from
  }
  if (!url.searchParams.has('jwt')) return value;
  url.searchParams.delete('jwt');
  return url.href;
}
