import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a session jwt opens: `cdp` the browser's DevTools (full control), `live:control` its live
 * view with input, `live:read` its live view to watch only, `replay:<id>` one replay's video page.
 * A jwt opens exactly its scope: a live view link never opens DevTools, a read link never sends
 * input. Jwts signed before scopes existed carry none and mean `cdp`.
 */
export type SessionJwtScope = 'cdp' | 'live:control' | 'live:read' | `replay:${string}`;

function base64Url(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url');
}

function signature(secret: string, signed: string): Buffer {
  return createHmac('sha256', secret).update(signed).digest();
}

/**
 * A signed jwt (HS256) scoped to one session and to `scope` until `expiresAtSeconds`, as the
 * session URLs (`cdp_ws_url`, `browser_live_view_url`, …) carry it.
 */
export function signSessionJwt(
  secret: string,
  sessionId: string,
  expiresAtSeconds: number,
  scope: SessionJwtScope = 'cdp',
): string {
  const header = base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = { sub: sessionId, exp: expiresAtSeconds, ...(scope === 'cdp' ? {} : { scope }) };
  const payload = base64Url(JSON.stringify(claims));
  return `${header}.${payload}.${base64Url(signature(secret, `${header}.${payload}`))}`;
}

/**
 * What `jwt` grants on `sessionId` now: its scope and when it expires (epoch seconds), when it is
 * signed with `secret` (compared in constant time), for that session, and not expired; else
 * undefined.
 */
export function readSessionJwt(
  secret: string,
  jwt: string,
  sessionId: string,
  nowSeconds: number,
): { readonly scope: SessionJwtScope; readonly expiresAt: number } | undefined {
  const [header, payload, given] = jwt.split('.');
  if (!header || !payload || !given || jwt.split('.').length !== 3) return undefined;
  const expected = signature(secret, `${header}.${payload}`);
  const actual = Buffer.from(given, 'base64url');
  if (actual.byteLength !== expected.byteLength || !timingSafeEqual(actual, expected))
    return undefined;
  let claims: { sub?: unknown; exp?: unknown; scope?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return undefined; // A payload that is not JSON is a jwt we never signed: not valid, not a fault.
  }
  if (claims.sub !== sessionId || typeof claims.exp !== 'number' || claims.exp <= nowSeconds)
    return undefined;
  const scope = claims.scope ?? 'cdp';
  if (typeof scope !== 'string') return undefined;
  return { scope: scope as SessionJwtScope, expiresAt: claims.exp };
}

/** Whether `jwt` grants `scope` on `sessionId` now (see readSessionJwt). */
export function verifySessionJwt(
  secret: string,
  jwt: string,
  sessionId: string,
  nowSeconds: number,
  scope: SessionJwtScope = 'cdp',
): boolean {
  return readSessionJwt(secret, jwt, sessionId, nowSeconds)?.scope === scope;
}
