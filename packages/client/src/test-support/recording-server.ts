import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { catalogChecks } from '../calls/checked.js';
import { type Client, createClient } from '../client/create-client.js';

/** One call the server received. */
export interface RecordedCall {
  method: string;
  /** Path and query, as sent (still percent-encoded). */
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A canned answer. */
export interface CannedResponse {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string | Uint8Array;
  /** Waits this long before answering, in milliseconds. */
  delayMs?: number;
}

/** Answers a call: canned data, or a function that writes the response itself. */
export type Responder =
  | CannedResponse
  | ((call: RecordedCall, response: ServerResponse) => void | Promise<void>);

/**
 * A real HTTP server on loopback for the client's tests: records every call and answers by
 * `METHOD path` with responses set as data or functions, in order (the last one repeats).
 */
export interface RecordingServer {
  readonly url: string;
  readonly calls: RecordedCall[];
  respond(method: string, path: string, ...responders: Responder[]): void;
  /** Makes the server discard request bodies (for large uploads), recording only their size. */
  discardBodies(): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const routes = new Map<string, Responder[]>();
  const calls: RecordedCall[] = [];
  let isDiscarding = false;

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).byteLength;
      if (!isDiscarding) chunks.push(chunk as Buffer);
    }
    const call: RecordedCall = {
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      body: isDiscarding ? Buffer.from(String(size)) : Buffer.concat(chunks),
    };
    calls.push(call);
    const pathname = call.url.split('?')[0];
    const queue = routes.get(`${call.method} ${pathname}`);
    const responder = queue && (queue.length > 1 ? queue.shift() : queue[0]);
    if (!responder) {
      response.writeHead(404, { 'content-type': 'application/json', 'x-request-id': 'req-404' });
      response.end(
        JSON.stringify({ code: 'not_found', message: `No route ${call.method} ${pathname}` }),
      );
      return;
    }
    if (typeof responder === 'function') {
      await responder(call, response);
      return;
    }
    if (responder.delayMs) await new Promise((resolve) => setTimeout(resolve, responder.delayMs));
    if (response.destroyed) return;
    const headers: Record<string, string> = {
      'x-request-id': `req-${calls.length}`,
      ...responder.headers,
    };
    if (responder.json !== undefined) headers['content-type'] ??= 'application/json';
    const body = responder.json !== undefined ? JSON.stringify(responder.json) : responder.body;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    response.writeHead(responder.status, headers);
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    respond(method, path, ...responders) {
      routes.set(`${method} ${path}`, responders);
    },
    discardBodies() {
      isDiscarding = true;
    },
    reset() {
      routes.clear();
      calls.length = 0;
      isDiscarding = false;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A recording server and clients of it for the tests of one file: started before them, emptied
 * before each, closed after. `client` is made as an app makes one by default; `checkedClient`
 * also checks every call against the catalog (`checks: catalogChecks`). Read them inside tests
 * (they are set once started).
 */
export function useRecordingServer(): {
  readonly server: RecordingServer;
  readonly client: Client;
  readonly checkedClient: Client;
} {
  const rig = {} as { server: RecordingServer; client: Client; checkedClient: Client };
  beforeAll(async () => {
    rig.server = await startRecordingServer();
    rig.client = createClient({ baseUrl: rig.server.url, token: 'tok_test' });
    rig.checkedClient = rig.client.withOptions({ checks: catalogChecks });
  });
  afterAll(() => rig.server.close());
  beforeEach(() => rig.server.reset());
  return rig;
}
