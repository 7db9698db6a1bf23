/**
 * Destinations a browser's network may reach beyond the public internet, as an operator opens
 * them for every session (`XB_ALLOW_NETWORKS`) and a browser narrows them (`network.allow`).
 * Schema-free, so the server's configuration and the service model parse them alike.
 *
 * An entry is an IPv4 network in CIDR form (`10.1.0.0/16`), one IPv4 address (`10.1.2.3`, the
 * same as `/32`), or one address and port (`127.0.0.1:8080`, `localhost:8080`). Sessions have no
 * IPv6 network, so IPv6 entries are refused; names other than `localhost` are refused too (a
 * name's addresses change, a rule on them would not).
 */

/** A parsed entry: `prefix` leading bits of `address`, and only `port` when one is given. */
export interface NetworkEntry {
  /** The network's first address, as an unsigned 32-bit number. */
  readonly address: number;
  /** Leading bits that are fixed, 0–32. */
  readonly prefix: number;
  /** The one TCP/UDP port it opens, or undefined for every port. */
  readonly port?: number | undefined;
}

/** Most entries one browser (or pool) may list. */
export const MAX_NETWORK_ENTRIES = 64;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** An IPv4 address in dotted-quad form as a number, or undefined. */
export function parseIpv4(text: string): number | undefined {
  const match = IPV4.exec(text);
  if (!match) return undefined;
  let value = 0;
  for (let index = 1; index <= 4; index++) {
    const part = match[index] as string;
    // A leading zero is octal to some parsers and decimal to others: refused as ambiguous.
    if (part.length > 1 && part.startsWith('0')) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** A number as a dotted-quad IPv4 address. */
export function formatIpv4(address: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join('.');
}

/** The mask of `prefix` leading bits, as an unsigned number. */
function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** Whether `address` lies in the network `network`/`prefix`. */
export function isInNetwork(address: number, network: number, prefix: number): boolean {
  const mask = maskOf(prefix);
  return (address & mask) >>> 0 === (network & mask) >>> 0;
}

/**
 * Parses one entry; a string saying what is wrong with it (for an error message) when it is not
 * one.
 */
export function parseNetworkEntry(text: string): NetworkEntry | string {
  const entry = text.trim();
  if (entry === '') return 'is empty';
  if (entry.includes('[') || entry.split(':').length > 2)
    return 'is an IPv6 address: sessions have no IPv6 network, give an IPv4 address or network';
  const slash = entry.indexOf('/');
  if (slash >= 0) {
    const address = parseIpv4(entry.slice(0, slash));
    const prefixText = entry.slice(slash + 1);
    const prefix = Number(prefixText);
    if (address === undefined || !/^\d{1,2}$/.test(prefixText) || prefix > 32)
      return 'must be an IPv4 network such as 10.1.0.0/16';
    const network = (address & maskOf(prefix)) >>> 0;
    if (network !== address)
      return `has bits set past its prefix: did you mean ${formatIpv4(network)}/${prefix}?`;
    return { address, prefix };
  }
  const colon = entry.indexOf(':');
  if (colon >= 0) {
    const host = entry.slice(0, colon);
    const portText = entry.slice(colon + 1);
    const port = Number(portText);
    if (!/^\d{1,5}$/.test(portText) || port < 1 || port > 65_535)
      return 'must have a port from 1 to 65535, such as 127.0.0.1:8080';
    const address = host === 'localhost' ? parseIpv4('127.0.0.1') : parseIpv4(host);
    if (address === undefined)
      return 'must name an IPv4 address (or localhost) before its port, such as 127.0.0.1:8080';
    return { address, prefix: 32, port };
  }
  const address = parseIpv4(entry);
  if (address === undefined)
    return 'must be an IPv4 network (10.1.0.0/16), an IPv4 address, or an address and port (127.0.0.1:8080)';
  return { address, prefix: 32 };
}

/** The canonical form of an entry: `a.b.c.d/n`, or `a.b.c.d:port`. */
export function formatNetworkEntry(entry: NetworkEntry): string {
  const address = formatIpv4(entry.address);
  return entry.port === undefined ? `${address}/${entry.prefix}` : `${address}:${entry.port}`;
}

/** Whether everything `inner` opens is opened by `outer` too. */
export function coversEntry(outer: NetworkEntry, inner: NetworkEntry): boolean {
  if (inner.prefix < outer.prefix) return false;
  if (!isInNetwork(inner.address, outer.address, outer.prefix)) return false;
  return outer.port === undefined || outer.port === inner.port;
}
