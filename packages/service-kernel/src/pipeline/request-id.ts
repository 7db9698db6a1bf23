import { HEADERS } from '@x/types';

/** A caller's request id is echoed when it is printable and not too long; otherwise one is made. */
const REQUEST_ID_PATTERN = /^[\x21-\x7e]{1,200}$/;

/**
 * Step: the call's request id. The caller's `X-Request-Id` when it is 1–200 printable ASCII
 * characters (so logs and answers stay safe to print), else a fresh one.
 */
export function requestIdOf(headers: Headers, newRequestId: () => string): string {
  const given = headers.get(HEADERS.requestId);
  return given !== null && REQUEST_ID_PATTERN.test(given) ? given : newRequestId();
}
