import { createHash } from 'node:crypto';
import {
  API_VERSION,
  allowedMethods,
  HEADERS,
  LIMITS,
  matchOperation,
  type Operation,
  type OperationName,
} from '@x/types';
import { authenticate, type Caller, type TokenSets, withoutSessionKeys } from './auth.js';
import type { CallRecord } from './call-record.js';
import type { HandlerResult, HandlerTable } from './handler.js';
import type { IdempotencyStore } from './idempotency.js';
import { type ReadBody, readBody } from './read-body.js';
import {
  bodyTooLarge,
  invalid,
  type MultipartReader,
  type ParsedBody,
  parseJson,
  readMultipartInMemory,
  validate,
} from './request-body.js';
import { errorResponse, fromSnapshot, jsonResponse, snapshot, toResponse } from './responses.js';
import { ServiceError } from './service-error.js';

/** What the service does with a call: answer it (perhaps cut short), or drop the connection. */
export type RequestOutcome =
  | {
      readonly kind: 'response';
      readonly response: Response;
      readonly truncateAfter?: number | 'half';
    }
  | { readonly kind: 'drop' };

/** What an interception (a fault a test injected) does to a call before it is handled. */
export interface Interception {
  /** Wait this long first. */
  readonly latencyMs?: number;
  /** Answer this instead of handling the call. */
  readonly respond?: Response;
  /** Drop the connection: before handling, or after (the work done, the answer lost). */
  readonly drop?: 'before' | 'after';
  /** Handle the call, then cut the body off. */
  readonly truncateAfter?: number | 'half';
}

/** The parts a service's request handler is made of. */
export interface RequestHandlerOptions<TRuntime> {
  /** What handlers work with, looked up for each call (a fake's reset may replace it). */
  readonly runtime: () => TRuntime;
  /** A handler for every operation of the catalog. */
  readonly handlers: HandlerTable<TRuntime>;
  readonly tokens: TokenSets;
  readonly idempotency: IdempotencyStore;
  /** A fresh, unguessable request id. */
  readonly newRequestId: () => string;
  /** The time, for call records. */
  readonly now: () => Date;
  /** The OpenAPI document served at `/openapi.json`. */
  readonly openApiDocument: () => unknown;
  /** Hears about errors no handler expected; the caller gets a plain 500. */
  readonly onUnexpectedError: (error: unknown) => void;
  /** Hears about every call as it arrives (the record is completed as the call is answered). */
  readonly onCall?: (record: CallRecord) => void;
  /** Decides, once the operation is known, whether a fault hits the call. */
  readonly intercept?: (operation: Operation) => Interception | undefined;
  /** Runs before each authenticated call: housekeeping such as ending idle browsers. */
  readonly beforeOperation?: () => void;
  /**
   * Reads the body of a multipart operation, once the call is authenticated and its path and
   * query are valid. The default holds it in memory; a server streams files to disk instead.
   */
  readonly readMultipart?: MultipartReader;
}

/** What a routed, authenticated call carries on to its handler with. */
interface RoutedCall {
  readonly request: Request;
  readonly url: URL;
  readonly record: CallRecord;
  readonly operation: Operation;
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
  readonly caller: Caller;
  readonly interception: Interception | undefined;
}

/** Largest multipart body read: the archive limit plus room for the form's framing. */
const MULTIPART_LIMIT = LIMITS.extensionArchiveBytes + 64 * 1024;

/** A caller's request id is echoed when it is printable and not too long; otherwise one is made. */
const REQUEST_ID_PATTERN = /^[\x21-\x7e]{1,200}$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates a service's request handler: routing by the catalog, auth, limits, validation and
 * idempotency exactly as contract.md says, then the operation's handler. Every answer carries
 * X-Request-Id and X-API-Version. The fake and the self-hosted server both answer through it.
 */
export function createRequestHandler<TRuntime>(
  options: RequestHandlerOptions<TRuntime>,
): (request: Request) => Promise<RequestOutcome> {
  const { runtime, handlers, idempotency } = options;

  /** Validates a routed call's body, runs its handler, and keeps or replays idempotent answers. */
  async function answer(call: RoutedCall, parsed: ParsedBody): Promise<RequestOutcome> {
    const { request, url, record, operation, params, query, caller, interception } = call;
    const { token } = caller;
    record.body = parsed.journal;
    const body = operation.body
      ? validate(operation.body.schema, parsed.value, 'body', 'body')
      : undefined;

    const handler = handlers[operation.name as OperationName] as (
      context: unknown,
    ) => HandlerResult | Promise<HandlerResult>;
    const run = async (): Promise<Response> => {
      const result = await handler({
        operation,
        params,
        query,
        body,
        origin: url.origin,
        signal: request.signal,
        runtime: runtime(),
      });
      // A read-only caller never receives a key to a browser.
      if (caller.isReadOnly && 'json' in result)
        return toResponse({ ...result, json: withoutSessionKeys(result.json) });
      return toResponse(result);
    };
    const { truncateAfter } = interception ?? {};
    if (truncateAfter !== undefined) record.fault = 'truncate';
    const outcome = (response: Response): RequestOutcome => {
      if (interception?.drop === 'after') {
        record.fault = 'drop';
        return { kind: 'drop' };
      }
      return truncateAfter === undefined
        ? { kind: 'response', response }
        : { kind: 'response', response, truncateAfter };
    };

    const key = request.headers.get(HEADERS.idempotencyKey);
    if (request.method !== 'POST' || key === null) return outcome(await run());
    if (key.length < 1 || key.length > LIMITS.idempotencyKeyLength) {
      throw invalid('The Idempotency-Key header is invalid.', [
        {
          code: 'invalid_input',
          message: `header.idempotency-key: must be 1–${LIMITS.idempotencyKeyLength} characters`,
        },
      ]);
    }
    // The token is kept as a hash: a store on disk never holds a token.
    const scope = `${createHash('sha256').update(token).digest('hex')} ${request.method} ${url.pathname}`;
    for (;;) {
      const lookup = await idempotency.lookup(scope, key, parsed.fingerprint);
      if (lookup.kind === 'reused') {
        throw new ServiceError(
          'idempotency_key_reused',
          'This Idempotency-Key was used with a different request body.',
        );
      }
      if (lookup.kind === 'replay') {
        const stored = await lookup.response;
        if (stored) return outcome(fromSnapshot(stored, true));
        continue; // The first attempt was not kept (it failed in a way worth retrying): do the work.
      }
      try {
        const stored = await snapshot(await run());
        await lookup.settle(stored);
        return outcome(fromSnapshot(stored, false));
      } catch (error) {
        const response = error instanceof ServiceError ? errorResponse(error) : undefined;
        await lookup.settle(response ? await snapshot(response) : undefined);
        throw error;
      }
    }
  }

  async function route(
    request: Request,
    url: URL,
    record: CallRecord,
    read: ReadBody | undefined,
  ): Promise<RequestOutcome> {
    if (request.method === 'GET' && url.pathname === '/openapi.json') {
      return { kind: 'response', response: jsonResponse(200, options.openApiDocument()) };
    }
    if (request.method === 'GET' && url.pathname === '/healthz') {
      return { kind: 'response', response: jsonResponse(200, { status: 'ok' }) };
    }
    const match = matchOperation(request.method, url.pathname);
    if (!match) {
      const allowed = allowedMethods(url.pathname);
      if (allowed.length > 0) {
        throw new ServiceError(
          'method_not_allowed',
          `${request.method} is not allowed on ${url.pathname}.`,
          {
            headers: { allow: allowed.join(', ') },
          },
        );
      }
      throw new ServiceError('not_found', `No operation at ${request.method} ${url.pathname}.`);
    }
    const operation = match.operation as Operation;
    record.operation = operation.name as OperationName;

    const interception = options.intercept?.(operation);
    if (interception?.latencyMs) await sleep(interception.latencyMs);
    if (interception?.drop === 'before') {
      record.fault = 'drop';
      return { kind: 'drop' };
    }
    if (interception?.respond) {
      record.fault = 'error';
      return { kind: 'response', response: interception.respond };
    }

    options.beforeOperation?.();
    const caller = authenticate(options.tokens, operation, request);
    if (read?.isTooLarge) throw bodyTooLarge();
    const params = validate(operation.pathParams, match.params, 'path', 'path') as Record<
      string,
      string
    >;
    const query = validate(
      operation.query,
      Object.fromEntries(url.searchParams),
      'query',
      'query parameters',
    ) as Record<string, unknown>;
    const call = { request, url, record, operation, params, query, caller, interception };
    if (read !== undefined) return answer(call, parseJson(operation, request, read.bytes));
    // A multipart body is read only now, for a caller known to be allowed, and freed once answered.
    const multipart = await (options.readMultipart ?? readMultipartInMemory)(
      request,
      MULTIPART_LIMIT,
    );
    try {
      return await answer(call, multipart);
    } finally {
      await multipart.dispose();
    }
  }

  return async (request) => {
    const url = new URL(request.url);
    const given = request.headers.get(HEADERS.requestId);
    const requestId =
      given !== null && REQUEST_ID_PATTERN.test(given) ? given : options.newRequestId();
    const match = matchOperation(request.method, url.pathname);
    // A multipart body waits for the caller to be authenticated (see route); others are read now.
    const read =
      (match?.operation as Operation | undefined)?.body?.encoding === 'multipart'
        ? undefined
        : await readBody(request, LIMITS.jsonBodyBytes);
    const bodyBytes = read?.isTooLarge === false ? read.bytes : undefined;
    const record: CallRecord = {
      at: options.now().toISOString(),
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      operation: undefined,
      headers: Object.fromEntries(request.headers),
      body: bodyBytes && bodyBytes.byteLength > 0 ? new TextDecoder().decode(bodyBytes) : undefined,
      status: undefined,
      requestId,
      fault: undefined,
    };
    options.onCall?.(record);
    let outcome: RequestOutcome;
    try {
      outcome = await route(request, url, record, read);
    } catch (error) {
      if (!(error instanceof ServiceError)) options.onUnexpectedError(error);
      const serviceError =
        error instanceof ServiceError
          ? error
          : new ServiceError('internal_error', 'The service failed unexpectedly.');
      outcome = { kind: 'response', response: errorResponse(serviceError) };
    }
    if (outcome.kind === 'response') {
      outcome.response.headers.set(HEADERS.requestId, requestId);
      outcome.response.headers.set(HEADERS.apiVersion, API_VERSION);
      record.status = outcome.response.status;
    }
    return outcome;
  };
}
