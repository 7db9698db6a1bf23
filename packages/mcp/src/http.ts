import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { catalogChecks, createClient } from '@x/client';
import { createMcpServer } from './server.js';

/** Bytes of one MCP request body at most: the API's own bound on a JSON body. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** How to serve the MCP server over HTTP, inside the service. */
export interface McpEndpointOptions {
  /**
   * Answers one API call in the service's own process: its request handler. Every tool call is
   * such a call, made with the MCP request's own `Authorization` and project headers, so the
   * service's authentication, projects, read-only tokens, limits and audit apply as they are.
   */
  readonly call: (request: Request) => Promise<Response>;
  /** Whether the request's bearer token is one the service knows (a token or an API key). */
  readonly isAuthenticated: (request: Request) => Promise<boolean>;
  /**
   * The service's URL as its callers reach it, which the tools name (`get_connection_context`).
   * Default: the origin the request was made to.
   */
  readonly publicUrl?: () => string;
  /** Characters of text one answer may carry before it is cut (and says so). */
  readonly maxTextChars?: number;
  /** Bytes of one request body at most; default 1 MiB. */
  readonly maxBodyBytes?: number;
}

/** The header a call names its project in (the API's own). */
const PROJECT_HEADER = 'x-kernel-project-id';

/**
 * The service's MCP endpoint (`/mcp`): the Streamable HTTP transport of the MCP SDK, stateless,
 * answering each POST with JSON. A request without a known bearer token is answered 401 before
 * anything else; each request gets an MCP server of its own whose tools call the API as the
 * request's caller. A call whose client goes away is cancelled: its API calls are aborted.
 *
 * @example
 * const mcp = createMcpEndpoint({ call: handler, isAuthenticated });
 * if (new URL(request.url).pathname === '/mcp') return mcp(request);
 */
export function createMcpEndpoint(
  options: McpEndpointOptions,
): (request: Request) => Promise<Response> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (request) => {
    if (!(await options.isAuthenticated(request))) {
      return errorResponse(
        401,
        'unauthorized',
        'The MCP endpoint needs a token or API key: send "Authorization: Bearer <token>".',
        { 'www-authenticate': 'Bearer' },
      );
    }
    if (request.method !== 'POST') {
      // Stateless: no session to resume or end, no stream of the server's own to open.
      return errorResponse(
        405,
        'method_not_allowed',
        `The MCP endpoint takes POST (Streamable HTTP, stateless), not ${request.method}.`,
        { allow: 'POST' },
      );
    }
    const body = await readBounded(request, maxBodyBytes);
    if (body === undefined) {
      return errorResponse(
        413,
        'payload_too_large',
        `An MCP request body is at most ${maxBodyBytes} bytes.`,
      );
    }
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(body);
    } catch {
      return errorResponse(400, 'bad_request', 'The MCP request body is not JSON.');
    }
    const token = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
    const client = createClient({
      baseUrl: options.publicUrl?.() ?? new URL(request.url).origin,
      token,
      project: request.headers.get(PROJECT_HEADER)?.trim() || undefined,
      // In-process: no socket, no second authentication path; one attempt, as the caller's.
      fetch: (input, init) => options.call(new Request(input, init)),
      maxRetries: 0,
      // A tool's bad argument is named before the call, as every MCP client of ours sees it.
      checks: catalogChecks,
    });
    const server = createMcpServer({ client, maxTextChars: options.maxTextChars });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The client went away: its calls are cancelled (their API calls aborted), and the request
    // is answered at once, for no one (the transport would wait for answers that never come).
    let stopListening = () => {};
    const gone = new Promise<Response>((resolve) => {
      const cancel = () => {
        void server.close();
        resolve(errorResponse(499, 'cancelled', 'The MCP client went away: its calls stopped.'));
      };
      if (request.signal.aborted) return cancel();
      request.signal.addEventListener('abort', cancel, { once: true });
      stopListening = () => request.signal.removeEventListener('abort', cancel);
    });
    try {
      await server.connect(transport);
      return await Promise.race([transport.handleRequest(request, { parsedBody }), gone]);
    } finally {
      stopListening();
      await server.close();
    }
  };
}

/** The body as text, or undefined when it is longer than `max` bytes (read no further). */
async function readBounded(request: Request, max: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    // The caller hears 413 either way; a body that failed already has nothing left to cancel.
    await request.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!request.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      // The caller hears 413 either way; a body that failed already has nothing left to cancel.
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** An answer in the service's Error shape. */
function errorResponse(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ code, message }, { status, headers });
}
