import {
  Agent,
  type ClientRequest,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createIdGenerator } from '@x/service-kernel';
import { API_VERSION, HEADERS } from '@x/types';
import type { Logger } from 'pino';
import { refuseUpgrade } from '../http/cdp-proxy.js';
import { HOP_HEADER } from './hop-signing.js';

/*
 * How a node passes a call to another and the answer back: streamed both ways as bytes, with
 * back-pressure, nothing buffered (uploads, event streams and downloads are piped; a WebSocket
 * is a byte tunnel once its upgrade is passed on), over connections kept to the other nodes.
 */

/** How long a node waits to connect to another before it answers 502. */
const CONNECT_TIMEOUT_MS = 2_000;
/** Headers that belong to one connection, not to the call, and are not passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  HOP_HEADER,
]);

/** Request ids of the answers a node gives itself when it cannot pass a call on. */
export const nextRequestId = createIdGenerator();

/** How long a connection to another node is kept idle: well within a node's own 5 s. */
const IDLE_CONNECTION_MS = 2_000;

/**
 * Keeps connections to the other nodes alive between calls, and closes one idle for `idleMs`:
 * before the node at the other end closes it (Node's server, after 5 s), so a call rarely goes
 * out on a connection as it closes. (Node's own agent heeds a server's `Keep-Alive: timeout`
 * only when it has a time-out of its own, which would time out its calls too: an event stream or
 * an acquire's wait runs for minutes.)
 */
export class NodeAgent extends Agent {
  readonly #idleMs: number;

  constructor(idleMs = IDLE_CONNECTION_MS) {
    super({ keepAlive: true, maxFreeSockets: 64 });
    this.#idleMs = idleMs;
  }

  override keepSocketAlive(socket: Duplex): boolean {
    const isKept = (super.keepSocketAlive as (socket: Duplex) => boolean)(socket);
    if (isKept) (socket as Socket).setTimeout(this.#idleMs);
    return isKept;
  }

  override reuseSocket(socket: Duplex, request: ClientRequest): void {
    (socket as Socket).setTimeout(0);
    super.reuseSocket(socket, request);
  }
}

/** What passes calls on: the connections kept to the other nodes, and where a failure is told. */
export interface PassVia {
  readonly agent: Agent;
  readonly logger: Logger;
}

/** One call to pass on: to `target`, with `headers` (raw) and `read`, what of its body was read. */
export interface PassedCall {
  readonly incoming: IncomingMessage;
  readonly response: ServerResponse;
  readonly target: URL;
  /** Its headers, or how to make them (each time it is sent). */
  readonly headers: readonly string[] | (() => readonly string[]);
  readonly read?: Buffer | undefined;
}

/** Methods a call of which is sent again when it was cut before it was answered. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Passes an HTTP call on and its answer back, both streamed, with back-pressure; answers 502 when
 * the target does not answer. A kept-alive connection the target closes as the call goes out on
 * it (the target's idle time-out and the call cross) cuts the call before the target read it: a
 * call that is safe to send again (a read with no body) is sent once more, on a new connection.
 */
export function passCall(via: PassVia, call: PassedCall, isResent = false): void {
  const { incoming, response, target, read } = call;
  const upstream = httpRequest({
    host: target.hostname,
    port: target.port,
    method: incoming.method,
    path: incoming.url,
    headers: [...(typeof call.headers === 'function' ? call.headers() : call.headers)],
    agent: via.agent,
  });
  timeConnection(upstream);
  upstream.on('response', (answer) => relayAnswer(answer, response));
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    if (!isResent && upstream.reusedSocket && error.code === 'ECONNRESET' && isResendable(call)) {
      via.logger.debug(
        { node: target.host },
        'a kept-alive connection closed; the call is sent again',
      );
      passCall(via, call, true);
      return;
    }
    via.logger.warn({ node: target.host, err: error }, 'a node did not answer a passed call');
    incoming.resume(); // what is left of the body is not read by anyone
    sendError(
      response,
      502,
      'bad_gateway',
      'The node that runs this session does not answer: try again shortly.',
      { 'retry-after': '2' },
    );
  });
  // A client that leaves takes the passed call with it.
  response.on('close', () => {
    if (!response.writableFinished) upstream.destroy();
  });
  if (read && read.length > 0) upstream.write(read);
  if (incoming.readableEnded) upstream.end();
  else incoming.pipe(upstream);
}

/**
 * Ends `upstream` when its connection is not made within CONNECT_TIMEOUT_MS. Only the connection
 * is timed: what is passed on (a create, an event stream) may take long.
 */
function timeConnection(upstream: ClientRequest): void {
  const timer = setTimeout(
    () => upstream.destroy(new Error('connect timeout')),
    CONNECT_TIMEOUT_MS,
  );
  upstream.once('socket', (socket: Socket) => {
    if (!socket.connecting) clearTimeout(timer);
    else socket.once('connect', () => clearTimeout(timer));
  });
  upstream.once('close', () => clearTimeout(timer));
}

/** Whether a call may be sent again: a safe method, and no body (none was read, none is sent). */
function isResendable({ incoming, read }: PassedCall): boolean {
  if (!SAFE_METHODS.has(incoming.method ?? '') || (read && read.length > 0)) return false;
  const length = incoming.headers['content-length'];
  return (
    (length === undefined || length === '0') && incoming.headers['transfer-encoding'] === undefined
  );
}

/**
 * Leaves a call whose body was read to this node (false: not taken): its handler takes the body
 * read (`rawBody`, which the Node adapter reads instead of the socket).
 */
export function keepHere(incoming: IncomingMessage, body: Buffer): false {
  (incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
  return false;
}

/** Passes an answer back as it comes: status, headers (not the connection's), body streamed. */
export function relayAnswer(answer: IncomingMessage, response: ServerResponse): void {
  response.writeHead(
    answer.statusCode ?? 502,
    answer.statusMessage,
    callHeaders(answer.rawHeaders),
  );
  // Headers at once: an event stream's client hears that it is open.
  response.flushHeaders();
  answer.pipe(response);
  answer.on('error', () => response.destroy());
}

/** Raw headers (name, value, …) without those `isLeftOut` names. */
function rawHeadersWithout(headers: readonly string[], isLeftOut: (name: string) => boolean) {
  const kept: string[] = [];
  for (let index = 0; index < headers.length; index += 2) {
    const name = headers[index] as string;
    if (!isLeftOut(name.toLowerCase())) kept.push(name, headers[index + 1] as string);
  }
  return kept;
}

/** A call's or an answer's raw headers without those of its connection. */
export const callHeaders = (headers: readonly string[]) =>
  rawHeadersWithout(headers, (name) => HOP_BY_HOP.has(name));

/** Raw headers without the body's length or coding (a body read whole is sent with its own). */
const withoutLengths = (headers: readonly string[]) =>
  rawHeadersWithout(headers, (name) => name === 'content-length' || name === 'transfer-encoding');

/**
 * Sends a call with a body read already (to `path`, else the call's own) with `headers` (raw);
 * resolves to the answer, its body unread.
 */
export function sendCall(
  via: PassVia,
  incoming: IncomingMessage,
  target: URL,
  body: Buffer,
  headers: readonly string[],
  path = incoming.url,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const upstream = httpRequest({
      host: target.hostname,
      port: target.port,
      method: incoming.method,
      path,
      headers: [...withoutLengths(headers), 'content-length', String(body.length)],
      agent: via.agent,
    });
    // Only the connection is timed: a create may take long, and must not be left half-way.
    timeConnection(upstream);
    upstream.once('response', resolve);
    upstream.once('error', reject);
    upstream.end(body);
  });
}

/** Passes a WebSocket upgrade on with `headers` (raw), then tunnels its bytes both ways. */
export function tunnelUpgrade(
  via: PassVia,
  incoming: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: URL,
  headers: readonly string[],
): void {
  const upstream = connect({ host: target.hostname, port: Number(target.port) || 80 });
  upstream.setNoDelay(true);
  const timer = setTimeout(
    () => upstream.destroy(new Error('connect timeout')),
    CONNECT_TIMEOUT_MS,
  );
  let isConnected = false;
  upstream.once('connect', () => {
    clearTimeout(timer);
    isConnected = true;
    let text = `${incoming.method} ${incoming.url} HTTP/1.1\r\n`;
    for (let index = 0; index < headers.length; index += 2)
      text += `${headers[index]}: ${headers[index + 1]}\r\n`;
    text += 'Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n';
    upstream.write(text);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on('error', (error) => {
    clearTimeout(timer);
    if (!isConnected) {
      via.logger.warn(
        { node: target.host, err: error },
        'a node did not answer a passed WebSocket',
      );
      refuseUpgrade(
        socket,
        503,
        'The node that runs this session does not answer: try again shortly.',
      );
      return;
    }
    socket.destroy();
  });
  upstream.on('close', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
  socket.on('close', () => upstream.destroy());
}

/**
 * A call's body, read whole; past `max` bytes, what was read (`isPartial`): the rest is left in
 * the call, paused, to be streamed after it.
 */
export async function readBody(
  incoming: IncomingMessage,
  max: number,
): Promise<{ readonly bytes: Buffer; readonly isPartial: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= max) return;
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.pause();
      resolve({ bytes: Buffer.concat(chunks), isPartial: true });
    };
    const onEnd = () => resolve({ bytes: Buffer.concat(chunks), isPartial: false });
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', reject);
  });
}

/** An answer's body as text (a small JSON one). */
export async function readText(answer: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function sendError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    [HEADERS.apiVersion]: API_VERSION,
    [HEADERS.requestId]: nextRequestId('req'),
    ...headers,
  });
  response.end(JSON.stringify({ code, message }));
}
