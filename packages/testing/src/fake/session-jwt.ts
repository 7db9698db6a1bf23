import { createHmac } from 'node:crypto';

function base64Url(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url');
}

/**
 * A signed jwt scoped to one session, as the session URLs carry it. The fake does not serve CDP;
 * the token is there so URLs have the contract's shape and tests can check their scope.
 */
export function sessionJwt(secret: string, sessionId: string, expiresAtSeconds: number): string {
  const header = base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64Url(JSON.stringify({ sub: sessionId, exp: expiresAtSeconds }));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  return `${header}.${payload}.${base64Url(signature)}`;
}
