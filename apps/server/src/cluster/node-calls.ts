import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { HOP_HEADER, type HopSigner, NODE_CALLS_PATH, receivedByOf } from './hop-signing.js';
import { type PassVia, readBody, readText, sendError } from './relay.js';

/** Largest body of a call between nodes (a browser's spec or record). */
const MAX_NODE_CALL_BYTES = 256 * 1024;

/** How long a call between nodes may take (a browser's start included). */
const NODE_CALL_MS = 60_000;

/** A call one node makes of another, as the other's handler reads it. */
export interface NodeCall {
  /** The node that made it (its tag, as its signature says). */
  readonly from: string;
  readonly method: string;
  /** Its path, below `/_node/`. */
  readonly path: string;
  readonly body: unknown;
  /** Aborts when the calling node gives up (its connection closes before the answer). */
  readonly signal: AbortSignal;
}

/** How a call between nodes is made beyond its request. */
export interface NodeCallOptions {
  /** Gives up on the call (the connection is closed: the other node hears it). */
  readonly signal?: AbortSignal;
  /** How long the call may take, NODE_CALL_MS unless said. */
  readonly timeoutMs?: number;
}

/** An answer to a call between nodes. */
export interface NodeAnswer {
  readonly status: number;
  readonly json?: unknown;
}

/** Answers the calls other nodes make of this one. */
export type NodeCallHandler = (call: NodeCall) => Promise<NodeAnswer>;

/** Where a node's calls of the others go out: its signer, its connections, its cluster view. */
export interface NodeCaller {
  readonly signer: HopSigner;
  readonly via: PassVia;
  /** The address of node `tag`, when it is up (not lost). */
  readonly addressOf: (tag: string) => string | undefined;
}

/**
 * Makes a call of node `tag` (signed, below `/_node/`): its answer, JSON read. Rejects when the
 * node is unknown, lost, or does not answer in time, or when `options.signal` aborts.
 */
export async function callNode(
  caller: NodeCaller,
  tag: string,
  method: string,
  path: string,
  body: unknown,
  options: NodeCallOptions = {},
): Promise<NodeAnswer> {
  const { signal, timeoutMs = NODE_CALL_MS } = options;
  signal?.throwIfAborted();
  const address = caller.addressOf(tag);
  if (address === undefined) throw new Error(`node ${tag} is not up`);
  const target = new URL(address);
  const fullPath = `${NODE_CALLS_PATH}${path}`;
  const bytes = Buffer.from(JSON.stringify(body ?? {}));
  const hop = caller.signer.signNodeCall(tag, method, fullPath, bytes);
  return new Promise((resolve, reject) => {
    const upstream = httpRequest({
      host: target.hostname,
      port: target.port,
      method,
      path: fullPath,
      headers: {
        'content-type': 'application/json',
        'content-length': String(bytes.length),
        [HOP_HEADER]: hop,
      },
      agent: caller.via.agent,
      signal,
    });
    const timer = setTimeout(
      () => upstream.destroy(new Error(`node ${tag} did not answer`)),
      timeoutMs,
    );
    upstream.once('close', () => clearTimeout(timer));
    upstream.once('response', (answer) => {
      readText(answer).then((text) => {
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: answer.statusCode ?? 502, json });
      }, reject);
    });
    upstream.once('error', reject);
    upstream.end(bytes);
  });
}

/**
 * Answers a signed call another node made of this one (`callNode`) with `handler` (404 without
 * one); a handler's failure is logged and answered 500.
 */
export async function answerNodeCall(
  signer: HopSigner,
  handler: NodeCallHandler | undefined,
  via: PassVia,
  incoming: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  // A body cut off (the calling node went away) is answered as one too large: nobody reads it.
  const read = await readBody(incoming, MAX_NODE_CALL_BYTES).catch(() => undefined);
  if (!read || read.isPartial) {
    incoming.resume();
    sendError(response, 413, 'payload_too_large', 'A call between nodes too large.');
    return;
  }
  // The signature names the body it was made for: another body is not that call. The call is
  // taken once.
  const taken = signer.takeNodeCall(incoming, read.bytes);
  if (taken === 'other-body') {
    sendError(response, 403, 'forbidden', 'A call between nodes whose body is not the one signed.');
    return;
  }
  if (taken === 'taken') {
    sendError(response, 403, 'forbidden', 'A call between nodes made already.');
    return;
  }
  let body: unknown;
  try {
    body = read.bytes.length === 0 ? {} : JSON.parse(read.bytes.toString('utf8'));
  } catch {
    sendError(response, 400, 'bad_request', 'A call between nodes whose body is not JSON.');
    return;
  }
  const path = (incoming.url ?? '').slice(NODE_CALLS_PATH.length).split('?')[0] as string;
  // The calling node gave up when its connection closes before the answer is sent.
  const gaveUp = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) gaveUp.abort();
  });
  const call: NodeCall = {
    from: receivedByOf(incoming) ?? '',
    method: incoming.method ?? 'GET',
    path,
    body,
    signal: gaveUp.signal,
  };
  const answer = handler
    ? await handler(call).catch((error: unknown) => {
        via.logger.error({ err: error, path }, 'a call from another node failed');
        return { status: 500, json: { code: 'internal_error', message: String(error) } };
      })
    : { status: 404, json: { code: 'not_found', message: 'No such call between nodes.' } };
  response.writeHead(answer.status, { 'content-type': 'application/json' });
  response.end(answer.json === undefined ? '' : JSON.stringify(answer.json));
}
