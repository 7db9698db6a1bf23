import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { BrowserInstance } from '../engines.js';
import { LIVE_SOCKET_PATH } from './live-page.js';
import type { LiveViewModel } from './live-view-model.js';

/** Largest message a live view page may send (a typed text is at most 4096 characters). */
const MAX_VIEWER_MESSAGE_BYTES = 64 * 1024;

/** How often an open socket is pinged, so proxies in between keep a still screen's socket open. */
const PING_INTERVAL_MS = 30_000;

/** Serves the live view sockets of a Node HTTP server's upgrades. */
export interface LiveViewSockets {
  /** Takes the upgrade when it is for a live view socket (and says so); else leaves it. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Ends every open socket. */
  close(): void;
}

/**
 * The live view's WebSocket, `/browsers/{id}/live/ws?jwt=…`, for both the fake and the server
 * (`liveViews` gives the service model's live views now: the fake may replace its model).
 * Every upgrade on that path is accepted, then a link that does not open is closed with its code
 * (expired 4401, session ended 4404), so the page can tell a person why instead of retrying.
 */
export function liveViewSockets<I extends BrowserInstance>(
  liveViews: (browserId: string) => LiveViewModel<I>,
): LiveViewSockets {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_VIEWER_MESSAGE_BYTES });
  const pinger = setInterval(() => {
    for (const client of server.clients) if (client.readyState === WebSocket.OPEN) client.ping();
  }, PING_INTERVAL_MS);
  pinger.unref();
  return {
    upgrade(request, socket, head) {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const id = LIVE_SOCKET_PATH.exec(url.pathname)?.[1];
      if (!id) return false;
      server.handleUpgrade(request, socket, head, (client) => {
        const model = liveViews(id);
        const grant = model.grant(id, url.searchParams.get('jwt') ?? '');
        if ('status' in grant) {
          client.close(grant.code, grant.message);
          return;
        }
        const connection = model.connect(id, grant, {
          sendText: (text) => {
            if (client.readyState === WebSocket.OPEN) client.send(text);
          },
          sendBinary: (bytes) => {
            if (client.readyState === WebSocket.OPEN) client.send(bytes, { binary: true });
          },
          close: (code, reason) => client.close(code, reason),
        });
        if (!connection) return;
        client.on('message', (data, isBinary) => {
          // The page sends text only; anything else is not the page.
          if (isBinary) client.close(1003, 'The live view takes text messages only.');
          else connection.receive(data.toString());
        });
        client.on('close', () => connection.closed());
        client.on('error', () => client.terminate());
      });
      return true;
    },
    close() {
      clearInterval(pinger);
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}
