import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  type OperatorNetworks,
  PROVIDER_TIMEOUT_MS,
  type ProviderAnswer,
  type ProviderClient,
  providerAnswerOf,
} from '@x/service-kernel';
import { allowedAddress } from '../network/destination-policy.js';

/**
 * Reaches credential providers' servers as the egress policy lets sessions go: the name is
 * resolved once, the address held to the policy (no loopback, private, link-local or host
 * address unless XB_ALLOW_NETWORKS opens it), and the connection made to that address, TLS still
 * checking the name. No redirect is followed; an answer is bounded in time and size.
 */
export class PinnedProviderClient implements ProviderClient {
  readonly defaultUrl: string | undefined;
  readonly #allow: OperatorNetworks;

  constructor(allow: OperatorNetworks, defaultUrl?: string) {
    this.#allow = allow;
    this.defaultUrl = defaultUrl;
  }

  async get(url: string, token: string): Promise<ProviderAnswer> {
    const target = new URL(url);
    const isTls = target.protocol === 'https:';
    const port = Number(target.port) || (isTls ? 443 : 80);
    const address = await allowedAddress(target.hostname, port, this.#allow);
    const lookup: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [{ address, family: 4 }]);
      else callback(null, address, 4);
    };
    const signal = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
    const request = (isTls ? https : http).request(target, {
      method: 'GET',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      lookup,
      agent: false,
      signal,
    });
    request.end();
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    try {
      return await providerAnswerOf(response.statusCode ?? 0, response);
    } finally {
      request.destroy();
    }
  }
}
