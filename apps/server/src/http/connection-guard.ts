import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How many connections the server keeps open for whom. */
export interface ConnectionLimits {
  /** Connections from one address at once (WebSockets included); past it a new one is closed. */
  readonly perClient: number;
  /**
   * Connections that have not yet shown a credential (a request with a token or a session jwt
   * the server accepted): past it the oldest such connection is closed for the new one.
   */
  readonly unauthenticated: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { perClient: 256, unauthenticated: 128 };

/**
 * Keeps callers from holding the server's open files: one address holds at most `perClient`
 * connections, and connections that have shown no credential are at most `unauthenticated`, the
 * oldest closed first (a caller that authenticates does so on its first request, so only idle
 * or refused connections age out). A connection shows a credential when a request on it carries
 * a known token, or a `jwt` and is not answered 401 or 403; a WebSocket upgrade leaves
 * the count at once (the CDP proxy and live view close one without a valid jwt themselves).
 * What was refused is counted for the metrics.
 */
export class ConnectionGuard {
  readonly #limits: ConnectionLimits;
  readonly #isNode: (address: string) => boolean;
  readonly #perClient = new Map<string, number>();
  /** Connections with no credential shown yet, oldest first. */
  readonly #unauthenticated = new Set<Socket>();
  #refused = { perClient: 0, unauthenticated: 0 };

  /**
   * `isKnownToken`: whether an Authorization header carries a token the server accepts.
   * `isNode`: whether an address is another node of the cluster's, which passes on the calls of
   * many clients: its connections are not counted as one client's, nor closed as idle ones.
   */
  constructor(
    server: Server,
    limits: ConnectionLimits,
    isKnownToken: (header: string) => boolean,
    isNode: (address: string) => boolean = () => false,
  ) {
    this.#limits = limits;
    this.#isNode = isNode;
    server.on('connection', (socket: Socket) => this.#accept(socket));
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (!this.#unauthenticated.has(request.socket)) return;
      // A known token counts at once (a long upload is not an idle connection); a jwt once the
      // page or socket it opens was not refused.
      const { authorization } = request.headers;
      if (authorization && isKnownToken(authorization)) {
        this.#unauthenticated.delete(request.socket);
        return;
      }
      if (!carriesJwt(request)) return;
      response.once('finish', () => {
        if (response.statusCode !== 401 && response.statusCode !== 403)
          this.#unauthenticated.delete(request.socket);
      });
    });
    server.on('upgrade', (request: IncomingMessage) =>
      this.#unauthenticated.delete(request.socket),
    );
  }

  /** Connections closed so far, by the bound they were past. */
  get refused(): { readonly perClient: number; readonly unauthenticated: number } {
    return { ...this.#refused };
  }

  /** Connections open now, and how many of them have shown no credential. */
  get open(): { readonly total: number; readonly unauthenticated: number } {
    let total = 0;
    for (const count of this.#perClient.values()) total += count;
    return { total, unauthenticated: this.#unauthenticated.size };
  }

  #accept(socket: Socket): void {
    const client = socket.remoteAddress ?? '';
    const isNode = this.#isNode(client);
    const held = this.#perClient.get(client) ?? 0;
    if (held >= this.#limits.perClient && !isNode) {
      this.#refused.perClient++;
      socket.destroy();
      return;
    }
    this.#perClient.set(client, held + 1);
    // Another node's connections carry signed calls between nodes (no token) and the calls it
    // passes on, many at once in a burst: none is closed for a newer one before its request
    // was even read.
    if (!isNode) this.#unauthenticated.add(socket);
    socket.once('close', () => {
      this.#unauthenticated.delete(socket);
      const left = (this.#perClient.get(client) ?? 1) - 1;
      if (left > 0) this.#perClient.set(client, left);
      else this.#perClient.delete(client);
    });
    if (this.#unauthenticated.size > this.#limits.unauthenticated) {
      const [oldest] = this.#unauthenticated;
      if (oldest) {
        this.#unauthenticated.delete(oldest);
        this.#refused.unauthenticated++;
        oldest.destroy();
      }
    }
  }
}

/** Whether a request carries what may be a session jwt (in its query or a cookie). */
function carriesJwt(request: IncomingMessage): boolean {
  const url = request.url ?? '';
  return url.includes('jwt=') || (request.headers.cookie ?? '').includes('jwt');
}
