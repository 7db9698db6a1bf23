import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import type { CallInfo, LiveViewSockets, RequestOutcome } from '@x/service-kernel';

/** Where to listen. */
export interface ListenOptions {
  /** Port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Address; `127.0.0.1` by default, so nothing outside the machine reaches the fake. */
  readonly host?: string;
}

function toRequest(message: IncomingMessage, signal: AbortSignal, fallbackHost: string): Request {
  const headers = new Headers();
  for (let index = 0; index < message.rawHeaders.length; index += 2) {
    headers.append(message.rawHeaders[index] as string, message.rawHeaders[index + 1] as string);
  }
  const hasBody = message.method !== 'GET' && message.method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = {
    method: message.method ?? 'GET',
    headers,
    signal,
  };
  if (hasBody) {
    init.body = Readable.toWeb(message) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(`http://${message.headers.host ?? fallbackHost}${message.url ?? '/'}`, init);
}

/** Writes a chunk, waiting while the socket's buffer is full, so a slow reader holds the body back. */
function write(response: ServerResponse, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    if (response.write(chunk)) resolve();
    else response.once('drain', resolve);
  });
}

async function send(
  response: ServerResponse,
  outcome: RequestOutcome & { kind: 'response' },
): Promise<void> {
  const { response: answer, truncateAfter } = outcome;
  let body = answer.body;
  let cutAt: number | undefined;
  if (truncateAfter !== undefined && body) {
    const isStream = answer.headers.get('content-type') === 'text/event-stream';
    if (!isStream) {
      // Known length: announce all of it, send part, and close: the reader sees a body cut short.
      const bytes = new Uint8Array(await answer.arrayBuffer());
      answer.headers.set('content-length', String(bytes.byteLength));
      cutAt =
        truncateAfter === 'half'
          ? Math.floor(bytes.byteLength / 2)
          : Math.min(truncateAfter, bytes.byteLength - 1);
      body = new Blob([bytes]).stream();
    } else {
      cutAt = truncateAfter === 'half' ? 1 : truncateAfter;
    }
  }
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  // An event stream may wait long for its first event: the caller should see the status now.
  response.flushHeaders();
  if (!body) {
    response.end();
    return;
  }
  const reader = body.getReader();
  response.once('close', () => {
    // The caller went away: stop the source (an event stream ends its watch reader).
    reader.cancel().catch(() => undefined);
  });
  let sent = 0;
  try {
    while (!response.destroyed) {
      const { done, value } = await reader.read();
      if (done) break;
      if (cutAt !== undefined && sent + value.byteLength >= cutAt) {
        await write(response, value.subarray(0, cutAt - sent));
        response.destroy();
        return;
      }
      sent += value.byteLength;
      await write(response, value);
    }
    response.end();
  } catch {
    // The source failed mid-body: there is no status left to send, so close the connection.
    response.destroy();
  }
}

/** Serves a request handler over real HTTP, until `close()`. */
export async function listenHttp(
  handle: (request: Request, info?: CallInfo) => Promise<RequestOutcome>,
  options: ListenOptions = {},
  sockets?: LiveViewSockets,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((message, response) => {
    const controller = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) controller.abort();
    });
    const request = toRequest(
      message,
      controller.signal,
      `${host}:${(server.address() as AddressInfo).port}`,
    );
    handle(request, { clientIp: message.socket.remoteAddress }).then(
      (outcome) => {
        if (outcome.kind === 'drop') message.socket.destroy();
        else return send(response, outcome);
      },
      () => message.socket.destroy(),
    );
  });
  // WebSockets: the live view's, and nothing else.
  server.on('upgrade', (message: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (sockets?.upgrade(message, socket, head)) return;
    socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  // Longer than any client's idle keep-alive, so a test pausing between calls never sends on a
  // connection the fake is closing at that moment.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        sockets?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
