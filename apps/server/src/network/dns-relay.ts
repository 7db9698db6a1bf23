import dgram from 'node:dgram';
import { once } from 'node:events';
import net from 'node:net';
import type { Logger } from 'pino';

/** A DNS message's fixed header: id, flags and four counts. */
const DNS_HEADER_BYTES = 12;

/** Most queries one session may have waiting on the host's resolvers at once; more are dropped. */
export const MAX_PENDING_QUERIES = 64;

/** Most DNS-over-TCP connections one session may hold at once. */
export const MAX_TCP_QUERIES = 8;

/** How long one resolver may take to answer before the next is asked, in milliseconds. */
const RESOLVER_TIMEOUT_MS = 2_000;

/** Longest a DNS-over-TCP connection may stay idle, in milliseconds. */
const TCP_IDLE_MS = 10_000;

/** Largest DNS message over UDP (EDNS), in bytes. */
const MAX_MESSAGE_BYTES = 4_096;

/** A resolver's address and port. */
export interface NetworkEndpoint {
  readonly address: string;
  readonly port: number;
}

/** `address:port`, as logs say it. */
export function formatEndpoint(endpoint: NetworkEndpoint): string {
  return `${endpoint.address}:${endpoint.port}`;
}

/**
 * A session's resolver (IPv4, as the resolvers it is given): it listens at the session's gateway (port 53, UDP and TCP) and passes
 * each query as it is to the host's own resolvers, which may sit at addresses the session may not
 * reach (this host's is private). The answer goes back unchanged: what a name resolves to does
 * not matter to the policy, which judges the address a packet is sent to (so DNS rebinding gains
 * nothing). Only the session's own address is served.
 */
export class DnsRelay {
  readonly #udp: dgram.Socket;
  readonly #tcp: net.Server;
  readonly #client: string;
  readonly #resolvers: readonly NetworkEndpoint[];
  readonly #pending = new Set<dgram.Socket>();
  readonly #connections = new Set<net.Socket>();

  private constructor(client: string, resolvers: readonly NetworkEndpoint[], logger: Logger) {
    this.#client = client;
    this.#resolvers = resolvers;
    this.#udp = dgram.createSocket('udp4');
    this.#udp.on('message', (query, from) => this.#answer(query, from));
    this.#udp.on('error', (error) => logger.warn({ err: error }, 'DNS relay socket failed'));
    this.#tcp = net.createServer((socket) => this.#pipe(socket));
    this.#tcp.maxConnections = MAX_TCP_QUERIES;
  }

  /** Starts a relay on `address`:53 for the one client address `client`. */
  static async start(
    address: string,
    client: string,
    resolvers: readonly NetworkEndpoint[],
    logger: Logger,
  ): Promise<DnsRelay> {
    const relay = new DnsRelay(client, resolvers, logger);
    try {
      relay.#udp.bind(53, address);
      await once(relay.#udp, 'listening');
      relay.#tcp.listen(53, address);
      await once(relay.#tcp, 'listening');
    } catch (error) {
      relay.close();
      throw error;
    }
    return relay;
  }

  /** Asks the resolvers in turn, each for a while, and sends the first answer back. */
  #answer(query: Buffer, from: dgram.RemoteInfo): void {
    // Shorter than a DNS header is not a query (and has no id to match an answer by).
    if (from.address !== this.#client || query.length > MAX_MESSAGE_BYTES) return;
    if (query.length < DNS_HEADER_BYTES) return;
    if (this.#pending.size >= MAX_PENDING_QUERIES) return;
    const upstream = dgram.createSocket('udp4');
    this.#pending.add(upstream);
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Ended once: by an answer, by the last resolver's silence, by an error, or by the relay's
    // close (which closes every pending socket); a timer or a send that comes after does nothing.
    let isDone = false;
    const finish = () => {
      clearTimeout(timer);
      if (isDone) return;
      isDone = true;
      this.#pending.delete(upstream);
      try {
        upstream.close();
      } catch {
        // Closed already, with the relay.
      }
    };
    upstream.on('close', () => {
      isDone = true;
      clearTimeout(timer);
    });
    const ask = () => {
      clearTimeout(timer);
      if (isDone) return;
      const resolver = this.#resolvers[attempt];
      if (resolver === undefined) return finish();
      attempt++;
      upstream.send(query, resolver.port, resolver.address, (error) => {
        if (error) ask();
      });
      timer = setTimeout(ask, RESOLVER_TIMEOUT_MS);
    };
    upstream.on('error', () => finish());
    upstream.on('message', (answer, resolver) => {
      const isResolver = this.#resolvers.some(
        (one) => one.port === resolver.port && one.address === resolver.address,
      );
      if (!isResolver) return;
      // The answer must be to this query (same id), or it is someone else's.
      if (answer.length < 2 || answer.readUInt16BE(0) !== query.readUInt16BE(0)) return;
      this.#udp.send(answer, from.port, from.address);
      finish();
    });
    ask();
  }

  /** A DNS-over-TCP connection, passed through to the first resolver. */
  #pipe(socket: net.Socket): void {
    if (
      socket.remoteAddress !== this.#client &&
      socket.remoteAddress !== `::ffff:${this.#client}`
    ) {
      socket.destroy();
      return;
    }
    const resolver = this.#resolvers[0] as NetworkEndpoint;
    const upstream = net.connect({ host: resolver.address, port: resolver.port });
    this.#connections.add(socket);
    const end = () => {
      this.#connections.delete(socket);
      socket.destroy();
      upstream.destroy();
    };
    socket.setTimeout(TCP_IDLE_MS, end);
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    socket.pipe(upstream).pipe(socket);
  }

  /** Stops listening and drops every query in flight. */
  close(): void {
    for (const socket of this.#pending) socket.close();
    this.#pending.clear();
    for (const socket of this.#connections) socket.destroy();
    try {
      this.#udp.close();
    } catch {
      // Never bound.
    }
    this.#tcp.close();
  }
}

/**
 * The IPv4 nameservers of the host's resolv.conf (the relays ask them); 127.0.0.1 when none.
 * IPv6 ones are left out: a relay asks over one family.
 */
export function hostNameservers(text: string): string[] {
  const servers = text
    .split('\n')
    .map((line) => /^\s*nameserver\s+(\S+)/.exec(line)?.[1])
    .filter((server): server is string => server !== undefined && net.isIPv4(server));
  return servers.length > 0 ? servers : ['127.0.0.1'];
}
