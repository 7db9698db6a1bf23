import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on loopback in front of a port, which a test can cut as a partition does: `cut()`
 * stops every byte both ways (nothing is refused or reset: the peers hear nothing, as across a
 * dropped link) and holds new connections unanswered; `mend()` resets what was held, so each
 * side notices and connects again, and relays again.
 */
export class TcpGate {
  readonly #server: Server;
  readonly #targetPort: number;
  readonly #sockets = new Set<Socket>();
  #isCut = false;

  private constructor(targetPort: number) {
    this.#targetPort = targetPort;
    this.#server = createServer((client) => this.#accept(client));
  }

  static async start(targetPort: number): Promise<TcpGate> {
    const gate = new TcpGate(targetPort);
    await new Promise<void>((resolve) => gate.#server.listen(0, '127.0.0.1', resolve));
    return gate;
  }

  get port(): number {
    return (this.#server.address() as { port: number }).port;
  }

  /** No byte passes any more, either way; new connections wait unanswered. */
  cut(): void {
    this.#isCut = true;
    for (const socket of this.#sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  /** What the cut held is reset; new connections are relayed again. */
  mend(): void {
    this.#isCut = false;
    for (const socket of [...this.#sockets]) socket.destroy();
  }

  async close(): Promise<void> {
    for (const socket of [...this.#sockets]) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #hold(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  #accept(client: Socket): void {
    this.#hold(client);
    if (this.#isCut) {
      client.pause();
      return;
    }
    const upstream = connect(this.#targetPort, '127.0.0.1');
    this.#hold(upstream);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
