import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { Duplex } from 'node:stream';

/** One request a test proxy received: `CONNECT host:port`, or a method and an absolute URL. */
export interface ProxiedRequest {
  readonly method: string;
  readonly target: string;
  readonly authorization: string | undefined;
}

/**
 * A small HTTP proxy on loopback for tests: tunnels CONNECT, forwards absolute-form requests,
 * and records every request. With `credentials`, a request without them is 407.
 */
export async function startTestProxy(credentials?: { username: string; password: string }) {
  const seen: ProxiedRequest[] = [];
  const sockets = new Set<Duplex>();
  const expected =
    credentials &&
    `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  const allowed = (request: IncomingMessage) => {
    const authorization = request.headers['proxy-authorization'];
    seen.push({ method: request.method ?? '', target: request.url ?? '', authorization });
    return expected === undefined || authorization === expected;
  };
  const server = createServer((request, response) => {
    if (!allowed(request)) {
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const url = new URL(request.url ?? '');
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    outgoing.on('error', () => response.writeHead(502).end());
    request.pipe(outgoing);
  });
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => client.destroy());
    if (!allowed(request)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const [host, port] = (request.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.byteLength > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
