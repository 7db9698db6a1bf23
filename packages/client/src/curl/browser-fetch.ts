import { type CurlInput, curl } from '../areas/curl.js';
import type { Core } from '../client/core.js';

/** What `browserFetch`'s function takes besides the URL: a subset of `fetch`'s `init`. */
export interface BrowserFetchInit {
  /** GET unless given: one of the methods curl takes. */
  readonly method?: CurlInput['method'];
  /** Headers to send over the browser's own (its cookies, user agent). */
  readonly headers?: HeadersInit;
  /** Sent as UTF-8; a URLSearchParams goes as a form unless a content-type is given. */
  readonly body?: string | URLSearchParams;
  /** How long the browser may take, in milliseconds (the call's `timeout_ms`). */
  readonly timeoutMs?: number;
  /** Aborts the call. */
  readonly signal?: AbortSignal;
}

/** A `fetch` whose requests the browser makes. */
export type BrowserFetch = (input: string | URL, init?: BrowserFetchInit) => Promise<Response>;

/** Statuses whose answer has no body, as `Response` insists. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The bytes of base64 text, in any runtime. */
function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * `fetch` as a browser session would make the request (`browsers.curl`): its cookies are sent and
 * its `Set-Cookie` kept, through its proxy and egress policy, with its user agent. The answer is a
 * standard `Response` (any status the site gave, every header value, the body as bytes), so code
 * written for `fetch` runs unchanged. A site that does not answer is the client's
 * `BadGatewayError`, one past `timeoutMs` its `GatewayTimeoutError`.
 *
 * ```ts
 * const fetchAs = browserFetch(client, session.session_id);
 * const orders = await (await fetchAs('https://shop.example/api/orders')).json();
 * ```
 */
export function browserFetch(
  target: Core | { readonly core: Core },
  browserId: string,
): BrowserFetch {
  const core = 'core' in target ? target.core : target;
  return async (input, init = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers));
    if (init.body instanceof URLSearchParams)
      headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
    const answer = await curl(
      core,
      {
        id: browserId,
        url: String(input),
        method: init.method,
        headers,
        body: init.body?.toString(),
        timeout_ms: init.timeoutMs,
        response_encoding: 'base64',
      },
      init.signal ? { signal: init.signal } : undefined,
    );
    if (answer.status < 200 || answer.status > 599)
      throw new RangeError(
        `${String(input)} answered ${answer.status}, which a Response cannot hold.`,
      );
    const responseHeaders = new Headers();
    for (const [name, values] of Object.entries(answer.headers))
      for (const value of values) responseHeaders.append(name, value);
    const hasBody = !NULL_BODY_STATUSES.has(answer.status) && init.method !== 'HEAD';
    return new Response(hasBody ? fromBase64(answer.body) : null, {
      status: answer.status,
      headers: responseHeaders,
    });
  };
}
