import { SESSION_URL_LIFETIME_SECONDS } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import { signSessionJwt } from '../session-jwt.js';
import type { BrowserEntry } from './browser-entry.js';

/**
 * The URL of a session's DevTools on `wsOrigin`, its jwt valid SESSION_URL_LIFETIME_SECONDS from
 * now, with when it expires (epoch seconds).
 */
export function sessionCdpUrl<I extends BrowserInstance>(
  context: ModelContext<I>,
  id: string,
  wsOrigin: string,
): { url: string; expiresAt: number } {
  const expiresAt = Math.floor(context.clock().getTime() / 1000) + SESSION_URL_LIFETIME_SECONDS;
  const jwt = signSessionJwt(context.settings.jwtSecret, id, expiresAt);
  return { url: `${wsOrigin}/browsers/${id}/cdp?jwt=${jwt}`, expiresAt };
}

/**
 * Signs a live session's URL again when less than half its lifetime is left, so a URL read
 * from a live session is valid for at least half of SESSION_URL_LIFETIME_SECONDS. Says whether
 * it did (the record changed and is to be saved).
 */
export function renewSessionUrl<I extends BrowserInstance>(
  context: ModelContext<I>,
  entry: BrowserEntry<I>,
): boolean {
  const now = context.clock().getTime() / 1000;
  if (entry.urlExpiresAt - now >= SESSION_URL_LIFETIME_SECONDS / 2) return false;
  const { session_id: id, cdp_ws_url: current } = entry.record;
  const cdp = sessionCdpUrl(context, id, new URL(current).origin);
  entry.record = { ...entry.record, cdp_ws_url: cdp.url };
  entry.urlExpiresAt = cdp.expiresAt;
  return true;
}
