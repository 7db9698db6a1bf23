import { once } from 'node:events';
import http from 'node:http';
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import type {
  OperatorNetworks,
  ProxyChecker,
  ProxyCheckResult,
  ProxyTarget,
} from '@x/service-kernel';
import { allowedAddress } from '../network/destination-policy.js';
import { connectToProxy, type PinnedProxy, proxyAuthorization } from './proxy-relay.js';

/** Longest a check takes before the proxy counts as unavailable, in milliseconds. */
const CHECK_TIMEOUT_MS = 15_000;

/** Most bytes of the check site's answer read. */
const MAX_ANSWER_BYTES = 4096;

/** The address in a check site's answer: plain text, or JSON with `ip` or `origin`. */
export function addressIn(body: string): string | undefined {
  let text = body.trim();
  try {
    const json = JSON.parse(text) as { ip?: unknown; origin?: unknown };
    const value = json.ip ?? json.origin;
    if (typeof value === 'string') text = value.split(',')[0]?.trim() ?? '';
  } catch {
    // Plain text.
  }
  return net.isIP(text) ? text : undefined;
}

/**
 * Checks a proxy the way a browser uses it: asks a site (`XB_PROXY_CHECK_URL`, which answers
 * with the address it sees) through the proxy, with the proxy's credentials. Available when the
 * site answers 200; the address it names is where the proxy's traffic exits.
 */
export class HttpProxyChecker implements ProxyChecker {
  readonly #checkUrl: URL;
  readonly #allow: OperatorNetworks;

  /**
   * `allow`: what the operator opens to sessions (XB_ALLOW_NETWORKS); the check reaches the proxy
   * only where a session could, never a private or loopback address the operator did not open.
   */
  constructor(checkUrl: string, allow: OperatorNetworks) {
    this.#checkUrl = new URL(checkUrl);
    this.#allow = allow;
  }

  async check(proxy: ProxyTarget): Promise<ProxyCheckResult> {
    const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
    try {
      const target: PinnedProxy = {
        ...proxy,
        address: await allowedAddress(proxy.host, proxy.port, this.#allow),
      };
      const { status, body } =
        this.#checkUrl.protocol === 'https:'
          ? await this.#throughTunnel(target, signal)
          : await this.#throughForward(target, signal);
      if (status === 407)
        return { isAvailable: false, reason: 'the proxy refused the credentials (407)' };
      if (status !== 200)
        return { isAvailable: false, reason: `the check site answered ${status}` };
      return { isAvailable: true, ipAddress: addressIn(body) };
    } catch (error) {
      return { isAvailable: false, reason: (error as Error).message };
    }
  }

  /** An http:// check URL: the request goes to the proxy with the absolute URL. */
  async #throughForward(target: PinnedProxy, signal: AbortSignal) {
    const socket = connectToProxy(target);
    return answerOf(
      http.request({
        createConnection: () => socket,
        method: 'GET',
        path: this.#checkUrl.href,
        headers: { host: this.#checkUrl.host, ...proxyAuthorization(target) },
        signal,
      }),
    );
  }

  /** An https:// check URL: a CONNECT tunnel through the proxy, then TLS to the site. */
  async #throughTunnel(target: PinnedProxy, signal: AbortSignal) {
    const url = this.#checkUrl;
    const authority = `${url.hostname}:${url.port || 443}`;
    const tunnel = http.request({
      createConnection: () => connectToProxy(target),
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...proxyAuthorization(target) },
      signal,
    });
    tunnel.end();
    const [answer, socket] = (await once(tunnel, 'connect', { signal })) as [
      http.IncomingMessage,
      Socket,
    ];
    if (answer.statusCode !== 200) {
      socket.destroy();
      return { status: answer.statusCode ?? 502, body: '' };
    }
    const secure = tls.connect({ socket, servername: url.hostname });
    return answerOf(
      http.request({
        createConnection: () => secure,
        method: 'GET',
        path: `${url.pathname}${url.search}`,
        headers: { host: url.host },
        signal,
      }),
    );
  }
}

/** Sends a request and reads its status and the start of its body. */
async function answerOf(request: http.ClientRequest): Promise<{ status: number; body: string }> {
  request.end();
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  let body = '';
  for await (const chunk of response as AsyncIterable<Buffer>) {
    body += chunk.toString('utf8');
    if (body.length > MAX_ANSWER_BYTES) break;
  }
  request.destroy();
  return { status: response.statusCode ?? 0, body: body.slice(0, MAX_ANSWER_BYTES) };
}
