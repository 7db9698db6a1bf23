import { SESSION_URL_LIFETIME_SECONDS } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import { signSessionJwt } from '../session-jwt.js';

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
