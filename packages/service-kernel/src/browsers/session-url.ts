import { SESSION_URL_LIFETIME_SECONDS } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import { type SessionJwtScope, signSessionJwt } from '../session-jwt.js';
import type { BrowserEntry } from './browser-entry.js';

/** How a live view link lets its holder act: watch and drive, or watch only. */
export type LiveViewMode = 'control' | 'read';

/** A session's live view page on `httpOrigin`, its jwt of `mode` valid until `expiresAt`. */
export function liveViewUrl<I extends BrowserInstance>(
  context: ModelContext<I>,
  id: string,
  httpOrigin: string,
  mode: LiveViewMode,
  expiresAt: number,
): string {
  const scope: SessionJwtScope = mode === 'read' ? 'live:read' : 'live:control';
  const jwt = signSessionJwt(context.settings.jwtSecret, id, expiresAt, scope);
  return `${httpOrigin}/browsers/${id}/live?jwt=${jwt}`;
}

/** When a URL handed out now expires: SESSION_URL_LIFETIME_SECONDS from now, epoch seconds. */
export function urlExpiry<I extends BrowserInstance>(context: ModelContext<I>): number {
  return Math.floor(context.clock().getTime() / 1000) + SESSION_URL_LIFETIME_SECONDS;
}

/** The base URL of a session's own endpoints on `httpOrigin` (its record, files, processes, …). */
export const sessionBaseUrl = (id: string, httpOrigin: string): string =>
  `${httpOrigin}/browsers/${id}`;

/**
 * The URLs of a session on `httpOrigin`: its DevTools and WebDriver BiDi WebSockets and its live
 * view page (control),
 * their jwts valid SESSION_URL_LIFETIME_SECONDS from now, with when they expire (epoch seconds),
 * and the base of its own endpoints, which carries no key.
 */
export function sessionUrls<I extends BrowserInstance>(
  context: ModelContext<I>,
  id: string,
  httpOrigin: string,
): { cdp: string; webdriver: string; live: string; base: string; expiresAt: number } {
  const expiresAt = urlExpiry(context);
  const jwt = signSessionJwt(context.settings.jwtSecret, id, expiresAt);
  const wsOrigin = httpOrigin.replace(/^http/, 'ws');
  return {
    cdp: `${wsOrigin}/browsers/${id}/cdp?jwt=${jwt}`,
    webdriver: `${wsOrigin}/browsers/${id}/webdriver/session?jwt=${jwt}`,
    live: liveViewUrl(context, id, httpOrigin, 'control', expiresAt),
    base: sessionBaseUrl(id, httpOrigin),
    expiresAt,
  };
}

/**
 * Signs a live session's URLs again when less than half their lifetime is left, so a URL read
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
  const urls = sessionUrls(context, id, new URL(current).origin.replace(/^ws/, 'http'));
  entry.record = {
    ...entry.record,
    cdp_ws_url: urls.cdp,
    webdriver_ws_url: urls.webdriver,
    browser_live_view_url: urls.live,
  };
  entry.urlExpiresAt = urls.expiresAt;
  return true;
}
