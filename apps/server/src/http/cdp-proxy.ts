import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { verifySessionJwt } from '@x/service-kernel';
import type { Logger } from 'pino';
import { WebSocket, WebSocketServer } from 'ws';
import type { BrowserService } from '../browsers/browser-service.js';

/** Path of a session's CDP endpoint: `/browsers/{id}/cdp`. */
const CDP_PATH = /^\/browsers\/([A-Za-z0-9_-]{1,64})\/cdp$/;

function refuse(socket: Duplex, status: number, reason: string): void {
  const body = JSON.stringify({
    code: status === 401 ? 'unauthorized' : 'not_found',
    message: reason,
  });
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Not Found'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Serves each session's `cdp_ws_url`: a WebSocket on this server that checks the session's jwt
 * (signed, unexpired, for that session) and then relays DevTools messages both ways to that
 * browser's Chromium, so Playwright's `connectOverCDP` and Puppeteer's `connect` work through it.
 * Traffic counts as activity for the idle time-out.
 */
export function attachCdpProxy(
  server: Server,
  browsers: BrowserService,
  jwtSecret: string,
  logger: Logger,
): () => void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024 * 1024 });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const id = CDP_PATH.exec(url.pathname)?.[1];
    if (!id) return refuse(socket, 404, `No WebSocket endpoint at ${url.pathname}.`);
    const jwt = url.searchParams.get('jwt') ?? '';
    if (!verifySessionJwt(jwtSecret, jwt, id, Math.floor(Date.now() / 1000))) {
      logger.warn({ session: id }, 'CDP connection refused: bad jwt');
      return refuse(socket, 401, 'The jwt is missing, expired, or for another session.');
    }
    const target = browsers.devtoolsUrl(id);
    if (!target) return refuse(socket, 404, `No running browser session "${id}".`);
    sockets.handleUpgrade(request, socket, head, (client) => {
      const upstream = new WebSocket(target, {
        perMessageDeflate: false,
        maxPayload: 256 * 1024 * 1024,
      });
      const queued: { data: WebSocket.RawData; isBinary: boolean }[] = [];
      client.on('message', (data, isBinary) => {
        browsers.touch(id);
        if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
        else queued.push({ data, isBinary });
      });
      upstream.on('open', () => {
        for (const message of queued.splice(0))
          upstream.send(message.data, { binary: message.isBinary });
      });
      upstream.on('message', (data, isBinary) => {
        browsers.touch(id);
        if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
      });
      const closeBoth = () => {
        client.terminate();
        upstream.terminate();
      };
      client.on('close', closeBoth);
      client.on('error', closeBoth);
      upstream.on('close', closeBoth);
      upstream.on('error', closeBoth);
    });
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  };
}
