import {
  createIdGenerator,
  createRequestHandler,
  type IdempotencyStore,
  type MultipartReader,
  type ServiceModel,
  serviceHandlers,
} from '@x/service-kernel';
import { createOpenApiDocument } from '@x/types/openapi';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { ChromiumInstance } from '../browsers/chromium-engine.js';
import type { ResolvedTokens } from './tokens.js';

/** What the HTTP app is made of. */
export interface AppOptions {
  readonly model: ServiceModel<ChromiumInstance>;
  readonly tokens: ResolvedTokens;
  readonly idempotency: IdempotencyStore;
  readonly logger: Logger;
  /** Reads multipart bodies: the server streams uploaded files to disk. */
  readonly readMultipart: MultipartReader;
}

/**
 * The server's Hono app. Every call goes through the shared request pipeline of
 * @x/service-kernel, which routes by the operation catalog (no second copy of paths or schemas)
 * and answers exactly as the fake does; each is logged with its request id, status and duration,
 * never with a token.
 */
export function createApp({ model, tokens, idempotency, logger, readMultipart }: AppOptions): Hono {
  const nextId = createIdGenerator();
  const documents = new Map<string, unknown>();
  let origin = '';
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
      if (!documents.has(origin))
        documents.set(origin, createOpenApiDocument({ serverUrl: origin }));
      return documents.get(origin);
    },
    onUnexpectedError: (error) => logger.error({ err: error }, 'unexpected error'),
  });
  const app = new Hono();
  app.all('*', async (context) => {
    const started = performance.now();
    const request = context.req.raw;
    origin = new URL(request.url).origin;
    const outcome = await handle(request);
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
  });
  return app;
}
