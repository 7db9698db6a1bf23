import { REQUEST_ID_HEADER } from '@x/types';

/** The request id the server gave a response (`X-Request-Id`), for support and logs. */
export function requestIdOf(headers: Headers): string | undefined {
  return headers.get(REQUEST_ID_HEADER) ?? undefined;
}
