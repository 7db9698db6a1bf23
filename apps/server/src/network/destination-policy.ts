import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { OperatorNetworks } from '@x/service-kernel';
import { isInNetwork, type NetworkEntry, parseIpv4, parseNetworkEntry } from '@x/types';
import { BLOCKED_NETWORKS } from './nft-rules.js';

const BLOCKED = BLOCKED_NETWORKS.map((text) => parseNetworkEntry(text) as NetworkEntry);

/** A destination the egress policy keeps the server itself from, said in words. */
export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

/**
 * The address the server may connect to for `host:port` on a session's behalf (its proxy, a
 * proxy check), by the rules sessions are held to: never loopback, link-local, private, CGNAT,
 * multicast, reserved or IPv6 addresses, nor an address of the host itself, unless `allow` (the
 * operator's XB_ALLOW_NETWORKS, or the session's share of it) names it; anything when the
 * operator opened the network (`open`). The name is resolved once here and the address returned
 * is the one to connect to, so a second answer of the resolver (rebinding) never counts.
 */
export async function allowedAddress(
  host: string,
  port: number,
  allow: OperatorNetworks,
): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare)
    ? [bare]
    : (await lookup(bare, { all: true, verbatim: true })).map((found) => found.address);
  if (allow === 'open') return addresses[0] as string;
  const own = hostAddresses();
  let refusal = '';
  for (const address of addresses) {
    const why = refusedBecause(address, port, allow, own);
    if (why === undefined) return address;
    refusal ||= why;
  }
  throw new DestinationRefused(
    `${host}:${port} ${refusal}: sessions may not reach it, nor the server for them; XB_ALLOW_NETWORKS can open it`,
  );
}

/** Why the policy refuses `address:port`, or undefined when it allows it. */
function refusedBecause(
  address: string,
  port: number,
  allow: readonly NetworkEntry[],
  own: ReadonlySet<string>,
): string | undefined {
  const number = parseIpv4(address);
  if (number === undefined) return `is at ${address}, an IPv6 address`;
  const isAllowed = allow.some(
    (entry) =>
      isInNetwork(number, entry.address, entry.prefix) &&
      (entry.port === undefined || entry.port === port),
  );
  if (isAllowed) return undefined;
  if (BLOCKED.some((entry) => isInNetwork(number, entry.address, entry.prefix)))
    return `is at ${address}, in a range the egress policy blocks`;
  if (own.has(address)) return `is at ${address}, an address of this host`;
  return undefined;
}

function hostAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const entry of list ?? []) addresses.add(entry.address);
  return addresses;
}
