import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type TelemetryEventInput, verifySessionJwt } from '@x/service-kernel';
import type { Logger } from 'pino';
import { WebSocket, WebSocketServer } from 'ws';
import type { CdpChannel, ChannelClient } from '../browsers/cdp-connection.js';

/** The running browsers, as the proxy reaches them. */
export interface CdpTargets {
  isRunning(id: string): boolean;
  /** A DevTools channel of its own for a client; undefined when the browser does not run. */
  openChannel(id: string, client: ChannelClient): Promise<CdpChannel> | undefined;
  /** Counts traffic as activity for the idle time-out. */
  touch(id: string): void;
  /** Counts a connected client as activity while it stays; gives the call that says it left. */
  connect(id: string): () => void;
  /** Hears how many bytes of DevTools messages went each way (for the metrics). */
  relayed?(direction: 'to_client' | 'to_browser', bytes: number): void;
  /** Hears a client arrive and leave (the session's `connection` telemetry). */
  telemetry?(id: string, event: TelemetryEventInput): void;
}

/** Path of a session's CDP endpoint: `/browsers/{id}/cdp`. */
const CDP_PATH = /^\/browsers\/([A-Za-z0-9_-]{1,64})\/cdp$/;

/** Largest DevTools message a client may send (a file set on an input is the largest kind). */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** Bytes a client may send before its channel is open (it opens in milliseconds). */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/**
 * Bytes waiting to reach a client past which its browser is no longer read (the client is not
 * keeping up), and below which it is read again.
 */
const CLIENT_HIGH_WATER_BYTES = 8 * 1024 * 1024;
const CLIENT_LOW_WATER_BYTES = 1024 * 1024;

/** The Error code and reason phrase of each status a WebSocket upgrade is refused with. */
const UPGRADE_REFUSALS: Readonly<Record<number, readonly [string, string]>> = {
  401: ['unauthorized', 'Unauthorized'],
  404: ['not_found', 'Not Found'],
  429: ['rate_limited', 'Too Many Requests'],
  503: ['unavailable', 'Service Unavailable'],
};

/** Answers a WebSocket upgrade with an HTTP error and an Error body, and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: 401 | 404 | 429 | 503, reason: string): void {
  const [code, phrase] = UPGRADE_REFUSALS[status] ?? ['internal_error', 'Error'];
  const body = JSON.stringify({ code, message: reason });
  socket.end(
    `HTTP/1.1 ${status} ${phrase}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Serves each session's `cdp_ws_url`: a WebSocket on this server that checks the session's jwt
 * (signed by this server, unexpired, for that session) and then gives the client a DevTools
 * channel of its own on that browser's pipe, so Playwright's `connectOverCDP` and Puppeteer's
 * `connect` work through it. It is the only way to a browser: Chromium listens on no port. Each
 * connection ends when its browser does (deleted, timed out, released to its pool). An open
 * connection counts as activity for the idle time-out, its traffic or not.
 */
export function attachCdpProxy(
  server: Server,
  browsers: CdpTargets,
  jwtSecret: string,
  logger: Logger,
  /** Other WebSockets of the server (the live view's): each takes the upgrades that are its own. */
  others: readonly ((request: IncomingMessage, socket: Duplex, head: Buffer) => boolean)[] = [],
): () => void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (others.some((other) => other(request, socket, head))) return;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const id = CDP_PATH.exec(url.pathname)?.[1];
    if (!id) return refuseUpgrade(socket, 404, `No WebSocket endpoint at ${url.pathname}.`);
    const jwt = url.searchParams.get('jwt') ?? '';
    if (!verifySessionJwt(jwtSecret, jwt, id, Math.floor(Date.now() / 1000))) {
      logger.warn({ session: id }, 'CDP connection refused: bad jwt');
      return refuseUpgrade(socket, 401, 'The jwt is missing, expired, or for another session.');
    }
    if (!browsers.isRunning(id))
      return refuseUpgrade(socket, 404, `No running browser session "${id}".`);
    sockets.handleUpgrade(request, socket, head, (client) => {
      const arrivedAt = Date.now();
      let messages = 0;
      let closedBy = 'client';
      const leave = browsers.connect(id);
      client.once('close', leave);
      browsers.telemetry?.(id, {
        category: 'connection',
        type: 'cdp_connect',
        source: { kind: 'kernel_api' },
      });
      client.once('close', () =>
        browsers.telemetry?.(id, {
          category: 'connection',
          type: 'cdp_disconnect',
          source: { kind: 'kernel_api' },
          data: { duration_ms: Date.now() - arrivedAt, message_count: messages, reason: closedBy },
        }),
      );
      // Messages that arrive while the channel opens wait for it, in order.
      const queued: string[] = [];
      let queuedBytes = 0;
      let channel: CdpChannel | undefined;
      let isCongested = false;
      const onSent = () => {
        if (isCongested && client.bufferedAmount < CLIENT_LOW_WATER_BYTES) {
          isCongested = false;
          channel?.drained();
        }
      };
      // Chromium's input backed up: the client is not read until it has room again.
      let isClientPaused = false;
      const pauseClient = (opened: CdpChannel) => {
        if (isClientPaused) return;
        isClientPaused = true;
        client.pause();
        opened.whenWritable(() => {
          isClientPaused = false;
          client.resume();
        });
      };
      const opening = browsers.openChannel(id, {
        deliver(message) {
          browsers.touch(id);
          browsers.relayed?.('to_client', Buffer.byteLength(message));
          if (client.readyState !== WebSocket.OPEN) return;
          // Text frames, whether the message came as a string or as its UTF-8 bytes.
          client.send(message, { binary: false }, onSent);
          if (client.bufferedAmount > CLIENT_HIGH_WATER_BYTES) isCongested = true;
        },
        end: () => {
          closedBy = 'browser_ended';
          client.terminate();
        },
        isCongested: () => isCongested,
      });
      if (!opening) return client.terminate();
      opening.then(
        (opened) => {
          channel = opened;
          if (client.readyState !== WebSocket.OPEN) return opened.close();
          let hasRoom = true;
          for (const text of queued.splice(0)) hasRoom = opened.send(text);
          if (!hasRoom) pauseClient(opened);
        },
        () => client.terminate(),
      );
      client.on('message', (data) => {
        browsers.touch(id);
        messages++;
        const text = data.toString();
        browsers.relayed?.('to_browser', Buffer.byteLength(text));
        if (channel) {
          if (!channel.send(text)) pauseClient(channel);
          return;
        }
        queued.push(text);
        queuedBytes += text.length;
        if (queuedBytes > MAX_QUEUED_BYTES) client.terminate();
      });
      const end = () => {
        channel?.close();
        client.terminate();
      };
      client.on('close', end);
      client.on('error', end);
    });
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  };
}
