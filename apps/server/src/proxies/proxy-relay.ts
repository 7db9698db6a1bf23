import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { ProxyRoute, ProxyTarget } from '@x/service-kernel';
import type { Logger } from 'pino';
import type { RelayPlace } from '../network/egress-networks.js';
import { loopbackPeerUid } from './socket-owner.js';

/** Most connections one browser may hold open through its relay at once. */
export const MAX_RELAY_CONNECTIONS = 256;

/** Longest a connection to the proxy may take to open, in milliseconds. */
const CONNECT_TIMEOUT_MS = 30_000;

/** Headers that concern one hop only: never passed on. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** `Proxy-Authorization: Basic …` for a proxy with a username, or nothing. */
export function proxyAuthorization(target: ProxyTarget): Record<string, string> {
  if (target.username === undefined) return {};
  const credentials = `${target.username}:${target.password ?? ''}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** A proxy, and the address its host was found at when the egress policy let the server reach it. */
export type PinnedProxy<T extends ProxyTarget = ProxyTarget> = T & { readonly address?: string };

/**
 * Opens a connection to the proxy: plain TCP, or TLS for an `https` proxy (its name checked
 * against its certificate), to the address the policy allowed when one was found.
 */
export function connectToProxy(target: PinnedProxy): Socket {
  const host = target.address ?? target.host;
  const socket =
    target.protocol === 'https'
      ? tls.connect({ host, port: target.port, servername: serverName(target.host) })
      : net.connect({ host, port: target.port });
  socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error('proxy connect timed out')));
  socket.once(target.protocol === 'https' ? 'secureConnect' : 'connect', () =>
    socket.setTimeout(0),
  );
  return socket;
}

/** The TLS server name of a host (none for an IP address). */
function serverName(host: string): string | undefined {
  return net.isIP(host.replace(/^\[|\]$/g, '')) ? undefined : host;
}

/**
 * A proxy on loopback between one browser and the proxy its session was created with. The
 * browser is told to use it (`--proxy-server`); it passes every request on to the real proxy,
 * answering the proxy's authentication itself, so the password never reaches the browser, its
 * profile or its sandbox. It only serves its own browser, so no other session can ride on its
 * credentials: in a session with a network of its own it listens where that network says (the
 * session's gateway, serving the session's address alone; the host's loopback behind an
 * unprivileged server's user-mode stack, reachable from that session's namespace only by its
 * rules); on the host's network it serves the connections the
 * browser's own user made (the socket table says who opened each).
 */
export class ProxyRelay {
  readonly #route: PinnedProxy<ProxyRoute>;
  readonly #uid: number | undefined;
  readonly #place: RelayPlace | undefined;
  readonly #logger: Logger;
  readonly #server: net.Server;
  readonly #http: http.Server;
  readonly #agent: http.Agent;
  readonly #sockets = new Set<Duplex>();

  private constructor(
    route: PinnedProxy<ProxyRoute>,
    uid: number | undefined,
    place: RelayPlace | undefined,
    logger: Logger,
  ) {
    this.#route = route;
    this.#uid = uid;
    this.#place = place;
    this.#logger = logger;
    const agentOptions = { keepAlive: true, maxSockets: MAX_RELAY_CONNECTIONS };
    this.#agent =
      route.protocol === 'https' ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    this.#http = http.createServer((request, response) => this.#forward(request, response));
    this.#http.on('connect', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.#tunnel(request, socket, head),
    );
    this.#http.on('clientError', (_error, socket) => socket.destroy());
    this.#server = net.createServer((socket) => void this.#accept(socket));
    this.#server.maxConnections = MAX_RELAY_CONNECTIONS;
  }

  /**
   * Starts a relay to `route` on a free port: where the session's network serves it (`place`),
   * from its peer alone when it names one; without one, of loopback, serving `uid` alone (undefined when browsers do not
   * run as users of their own).
   */
  static async start(
    route: PinnedProxy<ProxyRoute>,
    uid: number | undefined,
    logger: Logger,
    place?: RelayPlace,
  ): Promise<ProxyRelay> {
    const relay = new ProxyRelay(route, uid, place, logger);
    relay.#server.listen(0, place?.listen ?? '127.0.0.1');
    await once(relay.#server, 'listening');
    return relay;
  }

  /** The port it listens on. */
  get port(): number {
    return (this.#server.address() as net.AddressInfo).port;
  }

  /** `--proxy-server` and `--proxy-bypass-list` for the browser. */
  get chromiumProxy(): { server: string; bypassList: string } {
    // `<-loopback>`: loopback goes through the proxy too, unless listed to go direct.
    return {
      server: `http://${this.#place?.reachAt ?? '127.0.0.1'}:${this.port}`,
      bypassList: ['<-loopback>', ...this.#route.bypassHosts].join(';'),
    };
  }

  async #accept(socket: Socket): Promise<void> {
    this.#track(socket);
    socket.pause();
    if (this.#place?.peer !== undefined) {
      if (socket.remoteAddress !== this.#place.peer) {
        this.#logger.warn(
          { from: socket.remoteAddress },
          'proxy relay refused a connection from another address',
        );
        socket.destroy();
        return;
      }
    } else if (this.#uid !== undefined) {
      // One whose owner cannot be read is refused below as another user's would be.
      const owner = await loopbackPeerUid(socket).catch((error: unknown) => {
        this.#logger.warn({ err: error }, "proxy relay could not read a connection's owner");
        return undefined;
      });
      if (owner !== this.#uid) {
        this.#logger.warn({ owner }, 'proxy relay refused a connection of another user');
        socket.destroy();
        return;
      }
    }
    this.#http.emit('connection', socket);
    socket.resume();
  }

  #track(socket: Duplex): void {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  /** CONNECT (https, WebSockets): a tunnel through the proxy; its answer goes back as it is. */
  #tunnel(request: IncomingMessage, client: Duplex, head: Buffer): void {
    const target = request.url ?? '';
    const upstream = connectToProxy(this.#route);
    this.#track(upstream);
    const headers = { host: target, ...proxyAuthorization(this.#route) };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    upstream.write(`CONNECT ${target} HTTP/1.1\r\n${lines.join('')}\r\n`);
    if (head.byteLength > 0) upstream.write(head);
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    upstream.pipe(client);
    client.pipe(upstream);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  }

  /** A plain-HTTP request (absolute URL): sent on to the proxy with its credentials. */
  #forward(request: IncomingMessage, response: ServerResponse): void {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
    const client = this.#route.protocol === 'https' ? https : http;
    const outgoing = client.request({
      host: this.#route.address ?? this.#route.host,
      port: this.#route.port,
      method: request.method,
      path: request.url,
      headers: { ...headers, ...proxyAuthorization(this.#route) },
      agent: this.#agent,
      servername: serverName(this.#route.host),
      timeout: CONNECT_TIMEOUT_MS,
    });
    outgoing.on('response', (answer) => {
      const passed: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers))
        if (value !== undefined && !HOP_HEADERS.has(name) && name !== 'content-length')
          passed[name] = value;
      if (answer.headers['content-length'] !== undefined)
        passed['content-length'] = answer.headers['content-length'];
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, passed);
      answer.pipe(response);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('proxy timed out')));
    outgoing.on('error', () => {
      if (!response.headersSent) response.writeHead(502, { 'content-length': '0' }).end();
      else response.destroy();
    });
    request.pipe(outgoing);
  }

  /** Stops listening and ends every connection through it. */
  async close(): Promise<void> {
    const closed = new Promise((resolve) => this.#server.close(resolve));
    for (const socket of this.#sockets) socket.destroy();
    this.#agent.destroy();
    await closed;
  }
}
