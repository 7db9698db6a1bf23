import type { Readable } from 'node:stream';
import {
  createIdGenerator,
  createRequestHandler,
  type IdempotencyStore,
  type MultipartReader,
  type ServiceModel,
  serviceHandlers,
} from '@x/service-kernel';
import { createOpenApiDocument } from '@x/types/openapi';
import type { Logger } from 'pino';
import type { ChromiumInstance } from '../browsers/chromium-engine.js';
import { withStreamedBody } from './readable-stream.js';
import type { ResolvedTokens } from './tokens.js';

/** What the HTTP handler is made of. */
export interface AppOptions {
  readonly model: ServiceModel<ChromiumInstance>;
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
  const { model, tokens, idempotency, logger, readMultipart, publicUrl, readiness } = options;
  const nextId = createIdGenerator();
  // One document, built once: nothing a caller sends (a Host header) makes another.
  let openApi: unknown;
  const handle = createRequestHandler<ServiceModel<ChromiumInstance>>({
    runtime: () => model,
    handlers: serviceHandlers<ChromiumInstance>(),
    beforeOperation: () => model.sweep(),
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
    onUnexpectedError: (error) => logger.error({ err: error }, 'unexpected error'),
  });
  return async (request, env) => {
    const started = performance.now();
    const outcome = await handle(withStreamedBody(request, env?.incoming));
    // The server injects no faults: every outcome is an answer.
    if (outcome.kind !== 'response') throw new Error('A dropped call outside fault injection.');
    const { response } = outcome;
    logger.info(
      {
        requestId: response.headers.get('x-request-id'),
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        durationMs: Math.round(performance.now() - started),
      },
      'request',
    );
    return response;
  };
}
