import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createMcpEndpoint } from '@x/mcp';
import {
  createIdGenerator,
  createRequestHandler,
  hasKnownToken,
  type IdempotencyStore,
  type MultipartReader,
  type Organization,
  type ServiceModel,
  serviceHandlers,
  servicePages,
} from '@x/service-kernel';
import { createOpenApiDocument } from '@x/types/openapi';
import type { Logger } from 'pino';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';
import { clientAddressOf, receivedByOf } from '../cluster/hop-signing.js';
import type { ServerMetrics } from './metrics.js';
import { withStreamedBody } from './readable-stream.js';
import type { ResolvedTokens } from './tokens.js';

/** What the HTTP handler is made of. */
export interface AppOptions {
  readonly org: Organization<ChromiumInstance>;
  readonly tokens: ResolvedTokens;
  readonly idempotency: IdempotencyStore;
  readonly logger: Logger;
  /** Reads multipart bodies: the server streams uploaded files to disk. */
  readonly readMultipart: MultipartReader;
  /**
   * The URL clients reach the server at, known once it listens: every URL handed out is built
   * from it, and it is the OpenAPI document's `servers` entry. Never a request's Host header.
   */
  readonly publicUrl: () => string;
  /** What keeps the server from serving, for `/readyz`. */
  readonly readiness: () => Promise<readonly string[]>;
  /** What `GET /metrics` says; none: no metrics endpoint. */
  readonly metrics?: ServerMetrics;
}

/**
 * The server's HTTP handler: a Fetch API function, served on Node by `@hono/node-server`, which
 * passes the Node request as `env.incoming`.
 */
export type FetchHandler = (
  request: Request,
  env?: { readonly incoming?: Readable },
) => Promise<Response>;

/**
 * The server's HTTP handler. Every call goes through the shared request pipeline of
 * @x/service-kernel, which routes by the operation catalog (the one route table, shared with the
 * fake) and answers exactly as the fake does; each is logged with its request id, status and
 * duration, never with a token.
 */
export function createApp(options: AppOptions): FetchHandler {
  const { org, tokens, idempotency, logger, readMultipart, publicUrl, readiness, metrics } =
    options;
  const nextId = createIdGenerator();
  // One document, built once: nothing a caller sends (a Host header) makes another.
  let openApi: unknown;
  const handle = createRequestHandler<ServiceModel<ChromiumInstance>>({
    runtime: (project) => org.model(project),
    keys: (token) => org.callers.grantOf(token),
    sessionCaller: (sessionId, jwt) => org.callers.sessionCaller(sessionId, jwt),
    assertReachable: (operation, params) => org.assertReachable(operation, params),
    project: (caller, header) => org.callers.projectOf(caller, header),
    audit: (call) => org.audit.record(call),
    answered: (call) => {
      org.answered(call);
      if (call.status === 403)
        metrics?.refused(
          call.isReadOnly && call.operation.access !== 'read' ? 'read_only' : 'forbidden',
        );
    },
    handlers: serviceHandlers<ChromiumInstance>(() => org),
    beforeOperation: () => org.sweep(),
    tokens,
    idempotency,
    readMultipart,
    newRequestId: () => nextId('req'),
    now: () => new Date(),
    openApiDocument: () => {
      openApi ??= createOpenApiDocument({ serverUrl: publicUrl() });
      return openApi;
    },
    publicOrigin: publicUrl,
    readiness,
    pages: servicePages((browserId) => org.modelOfBrowser(browserId)),
    onUnexpectedError: (error) => logger.error({ err: error }, 'unexpected error'),
  });
  return async (request, env) => {
    const started = performance.now();
    const pathname = new URL(request.url).pathname;
    // The metrics, outside the catalog: any token may read them (or a loopback port, no token).
    if (pathname === '/metrics' && request.method === 'GET' && metrics) {
      if (!hasKnownToken(tokens, request) && !(await org.callers.isKey(request))) {
        return Response.json(
          { code: 'unauthorized', message: 'GET /metrics needs a token (any, read-only too).' },
          { status: 401, headers: { 'www-authenticate': 'Bearer' } },
        );
      }
      return metricsResponse(metrics);
    }
    // A call another node of a cluster passed on names its client's address.
    const incoming = env?.incoming as IncomingMessage | undefined;
    const clientIp = incoming ? clientAddressOf(incoming) : undefined;
    const receivedBy = incoming ? receivedByOf(incoming) : undefined;
    if (pathname === '/mcp') {
      // The MCP server: each tool call an API call of this caller's, answered in-process by the
      // same pipeline (and so through any node of a cluster), audited with its address.
      const mcp = createMcpEndpoint({
        call: (call) => answer(call, { clientIp, receivedBy }),
        publicUrl,
        isAuthenticated: async (call) =>
          hasKnownToken(tokens, call) || (await org.callers.isKey(call)),
      });
      const response = await mcp(withStreamedBody(request, env?.incoming));
      logger.info(
        {
          method: request.method,
          path: pathname,
          status: response.status,
          durationMs: Math.round(performance.now() - started),
        },
        'request',
      );
      return response;
    }
    return answer(withStreamedBody(request, env?.incoming), { clientIp, receivedBy }, started);
  };

  /** One API call, answered, measured and logged. */
  async function answer(
    request: Request,
    info: { clientIp?: string; receivedBy?: string },
    started = performance.now(),
  ): Promise<Response> {
    const pathname = new URL(request.url).pathname;
    const outcome = await handle(request, info);
    // The server injects no faults: every outcome is an answer.
    if (outcome.kind !== 'response') throw new Error('A dropped call outside fault injection.');
    const { response } = outcome;
    const durationMs = performance.now() - started;
    metrics?.answered(outcome.operation ?? 'other', response.status, durationMs / 1000);
    logger.info(
      {
        requestId: response.headers.get('x-request-id'),
        method: request.method,
        path: pathname,
        status: response.status,
        durationMs: Math.round(durationMs),
      },
      'request',
    );
    return response;
  }
}

/** A scrape of the metrics, in Prometheus text format. */
export async function metricsResponse(
  metrics: ServerMetrics,
  anonymous = false,
): Promise<Response> {
  const { body, contentType } = await metrics.scrape(anonymous);
  return new Response(body, { headers: { 'content-type': contentType } });
}
