import { createHmac, timingSafeEqual } from 'node:crypto';

function base64Url(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url');
}

function signature(secret: string, signed: string): Buffer {
  return createHmac('sha256', secret).update(signed).digest();
}

/**
 * A signed jwt (HS256) scoped to one session until `expiresAtSeconds`, as the session URLs
 * (`cdp_ws_url`, …) carry it.
 */
export function signSessionJwt(
  secret: string,
  sessionId: string,
  expiresAtSeconds: number,
): string {
  const header = base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64Url(JSON.stringify({ sub: sessionId, exp: expiresAtSeconds }));
  return `${header}.${payload}.${base64Url(signature(secret, `${header}.${payload}`))}`;
}

/**
 * Whether `jwt` grants access to `sessionId` now: signed with `secret` (compared in constant
 * time), for that session, and not expired.
 */
export function verifySessionJwt(
  secret: string,
  jwt: string,
  sessionId: string,
  nowSeconds: number,
): boolean {
  const [header, payload, given] = jwt.split('.');
  if (!header || !payload || !given || jwt.split('.').length !== 3) return false;
  const expected = signature(secret, `${header}.${payload}`);
  const actual = Buffer.from(given, 'base64url');
  if (actual.byteLength !== expected.byteLength || !timingSafeEqual(actual, expected)) return false;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      sub?: unknown;
      exp?: unknown;
    };
    return claims.sub === sessionId && typeof claims.exp === 'number' && claims.exp > nowSeconds;
  } catch {
    return false; // A payload that is not JSON is a jwt we never signed: not valid, not a fault.
  }
}
