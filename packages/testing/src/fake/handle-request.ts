import { createHash, timingSafeEqual } from 'node:crypto';
import {
  API_VERSION,
  allowedMethods,
  type ErrorBody,
  HEADERS,
  LIMITS,
  matchOperation,
  type Operation,
  type OperationName,
  validationDetails,
} from '@x/types';
import { safeParse } from 'valibot';
import type { FaultSet } from '../faults/faults.js';
import type { Journal, JournalEntry } from '../journal/journal.js';
import { expireIdleBrowsers } from './browsers.js';
import type { HandlerResult, HandlerTable } from './handler-types.js';
import type { IdempotencyStore, StoredResponse } from './idempotency.js';
import { readBody } from './read-body.js';
import type { FakeRuntime } from './runtime.js';
import { ServiceError } from './service-error.js';

/** What the fake does with a call: answer it (perhaps cut short), or drop the connection. */
export type FakeOutcome =
  | {
      readonly kind: 'response';
      readonly response: Response;
      readonly truncateAfter?: number | 'half';
    }
  | { readonly kind: 'drop' };

/** The parts a request handler works with. */
export interface RequestHandlerParts {
  readonly runtime: FakeRuntime;
  readonly handlers: HandlerTable;
  readonly faults: FaultSet;
  readonly journal: Journal;
  readonly idempotency: IdempotencyStore;
  /** The OpenAPI document served at `/openapi.json`. */
  readonly openApiDocument: () => unknown;
  /** Hears about errors no handler expected; the caller gets a plain 500. */
  readonly onUnexpectedError: (error: unknown) => void;
}

/** Largest multipart body read: the archive limit plus room for the form's framing. */
const MULTIPART_LIMIT = LIMITS.extensionArchiveBytes + 64 * 1024;

/** A caller's request id is echoed when it is printable and not too long; otherwise one is made. */
const REQUEST_ID_PATTERN = /^[\x21-\x7e]{1,200}$/;

function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function errorResponse(error: ServiceError): Response {
  return jsonResponse(error.status, error.body(), { ...error.headers });
}

function invalid(message: string, details: ErrorBody['details']): ServiceError {
  return new ServiceError('bad_request', message, details ? { details } : {});
}

function toResponse(result: HandlerResult): Response {
  const headers: Record<string, string> = 'headers' in result ? { ...result.headers } : {};
  if ('json' in result) return jsonResponse(result.status, result.json, headers);
  if ('bytes' in result) {
    return new Response(result.bytes as Uint8Array<ArrayBuffer>, {
      status: result.status,
      headers: {
        ...headers,
        'content-type': result.contentType,
        'content-length': String(result.bytes.byteLength),
      },
    });
  }
  if ('events' in result) {
    return new Response(result.events, {
      status: result.status,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    });
  }
  return new Response(null, { status: result.status });
}

function bearerToken(request: Request): string | undefined {
  const header = request.headers.get(HEADERS.authorization) ?? '';
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Whether `token` is one of `known`, compared in constant time as the contract asks: both sides
 * are hashed to the same length, and every known token is compared.
 */
function isKnownToken(token: string, known: ReadonlySet<string>): boolean {
  const digest = createHash('sha256').update(token).digest();
  let isFound = false;
  for (const candidate of known) {
    if (timingSafeEqual(digest, createHash('sha256').update(candidate).digest())) isFound = true;
  }
  return isFound;
}

function authenticate(runtime: FakeRuntime, operation: Operation, request: Request): string {
  const token = bearerToken(request);
  const { tokens, readOnlyTokens } = runtime.settings;
  const isFull = token !== undefined && isKnownToken(token, tokens);
  if (token === undefined || (!isFull && !isKnownToken(token, readOnlyTokens))) {
    throw new ServiceError(
      'unauthorized',
      token === undefined ? 'Missing bearer token.' : 'Unknown bearer token.',
    );
  }
  if (operation.access === 'write' && !isFull) {
    throw new ServiceError('forbidden', `This token may only read; ${operation.name} acts.`);
  }
  return token;
}

function isJsonContentType(value: string | null): boolean {
  const type = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/** The validated body and a fingerprint of it for idempotency keys. */
interface ParsedBody {
  readonly value: unknown;
  readonly journal: unknown;
  readonly fingerprint: string;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

async function parseMultipart(request: Request, bytes: Uint8Array): Promise<ParsedBody> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    throw new ServiceError('unsupported_media_type', 'This operation takes multipart/form-data.');
  }
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    throw invalid('The multipart body could not be read.', [
      { code: 'invalid_input', message: 'body: malformed multipart/form-data' },
    ]);
  }
  const value: Record<string, unknown> = {};
  const journal: Record<string, unknown> = {};
  const hash = createHash('sha256');
  for (const [name, part] of form.entries()) {
    if (name in value)
      throw invalid(`Form part "${name}" is given twice.`, [
        { code: 'invalid_input', message: `body.${name}: is given twice` },
      ]);
    value[name] = part;
    if (typeof part === 'string') {
      journal[name] = part;
      hash.update(`${name}=${part}\n`);
    } else {
      journal[name] = { filename: part.name, size: part.size, type: part.type };
      hash
        .update(`${name}:`)
        .update(new Uint8Array(await part.arrayBuffer()))
        .update('\n');
    }
  }
  return { value, journal, fingerprint: hash.digest('hex') };
}

function parseJson(operation: Operation, request: Request, bytes: Uint8Array): ParsedBody {
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return { value: undefined, journal: undefined, fingerprint: '' };
  if (!operation.body) {
    throw invalid(`${operation.name} takes no request body.`, [
      { code: 'invalid_input', message: 'body: must be empty' },
    ]);
  }
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ServiceError('unsupported_media_type', 'The request body must be application/json.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid('The request body is not valid JSON.', [
      { code: 'invalid_input', message: `body: ${(error as Error).message}` },
    ]);
  }
  return { value, journal: value, fingerprint: sha256(JSON.stringify(value)) };
}

/** Checks a value against a schema, throwing a 400 that names every bad field. */
function validate(
  schema: Parameters<typeof safeParse>[0] | undefined,
  value: unknown,
  location: string,
  what: string,
): unknown {
  if (!schema) {
    const keys = value && typeof value === 'object' ? Object.keys(value) : [];
    if (keys.length > 0) {
      throw invalid(
        `Unknown ${what}.`,
        keys.map((key) => ({
          code: 'invalid_input',
          message: `${location}.${key}: is not a known field`,
        })),
      );
    }
    return {};
  }
  const result = safeParse(schema, value);
  if (!result.success)
    throw invalid(`The request ${what} is invalid.`, validationDetails(result.issues, location));
  return result.output;
}

async function snapshot(response: Response): Promise<StoredResponse> {
  const body = response.body ? new Uint8Array(await response.arrayBuffer()) : undefined;
  return { status: response.status, headers: [...response.headers], body };
}

function fromSnapshot(stored: StoredResponse, isReplay: boolean): Response {
  const response = new Response((stored.body ?? null) as Uint8Array<ArrayBuffer> | null, {
    status: stored.status,
    headers: [...stored.headers],
  });
  if (isReplay) response.headers.set('idempotent-replayed', 'true');
  return response;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates the fake's request handler: routing by the catalog, faults, auth, limits, validation
 * and idempotency exactly as contract.md says, then the operation's handler. Every answer
 * carries X-Request-Id and X-API-Version, and every call goes into the journal.
 */
export function createRequestHandler(
  parts: RequestHandlerParts,
): (request: Request) => Promise<FakeOutcome> {
  const { runtime, handlers, faults, journal, idempotency } = parts;

  async function route(
    request: Request,
    url: URL,
    entry: Omit<JournalEntry, 'body'> & { body: unknown },
    bodyBytes: Uint8Array | undefined,
  ): Promise<FakeOutcome> {
    if (request.method === 'GET' && url.pathname === '/openapi.json') {
      return { kind: 'response', response: jsonResponse(200, parts.openApiDocument()) };
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
    (entry as { operation: OperationName }).operation = operation.name as OperationName;

    const decision = faults.decide(operation.name);
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    const dropsAfterHandling =
      decision.effect?.type === 'drop' && decision.effect.afterHandling === true;
    if (decision.effect?.type === 'drop' && !dropsAfterHandling) {
      entry.fault = 'drop';
      return { kind: 'drop' };
    }
    if (decision.effect?.type === 'error') {
      entry.fault = 'error';
      return {
        kind: 'response',
        response: jsonResponse(decision.effect.status, decision.effect.body, {
          ...decision.effect.headers,
        }),
      };
    }

    expireIdleBrowsers(runtime);
    const token = authenticate(runtime, operation, request);
    if (bodyBytes === undefined)
      throw new ServiceError(
        'payload_too_large',
        `The request body is larger than this operation accepts.`,
      );

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
    const parsed =
      operation.body?.encoding === 'multipart'
        ? await parseMultipart(request, bodyBytes)
        : parseJson(operation, request, bodyBytes);
    entry.body = parsed.journal;
    const body = operation.body
      ? validate(operation.body.schema, parsed.value, 'body', 'body')
      : undefined;

    const run = async (): Promise<Response> => {
      const handler = handlers[operation.name as OperationName] as (
        context: unknown,
      ) => HandlerResult | Promise<HandlerResult>;
      const result = await handler({
        operation,
        params,
        query,
        body,
        origin: url.origin,
        signal: request.signal,
        runtime,
      });
      return toResponse(result);
    };
    const truncateAfter =
      decision.effect?.type === 'truncate' ? (decision.effect.afterBytes ?? 'half') : undefined;
    if (truncateAfter !== undefined) entry.fault = 'truncate';
    const outcome = (response: Response): FakeOutcome => {
      if (dropsAfterHandling) {
        entry.fault = 'drop';
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
    const scope = `${sha256(token)} ${request.method} ${url.pathname}`;
    for (;;) {
      const lookup = idempotency.lookup(scope, key, parsed.fingerprint);
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
        lookup.settle(stored);
        return outcome(fromSnapshot(stored, false));
      } catch (error) {
        const response = error instanceof ServiceError ? errorResponse(error) : undefined;
        lookup.settle(response ? await snapshot(response) : undefined);
        throw error;
      }
    }
  }

  return async (request) => {
    const url = new URL(request.url);
    const given = request.headers.get(HEADERS.requestId);
    const requestId =
      given !== null && REQUEST_ID_PATTERN.test(given) ? given : runtime.nextId('req');
    const match = matchOperation(request.method, url.pathname);
    const limit =
      (match?.operation as Operation | undefined)?.body?.encoding === 'multipart'
        ? MULTIPART_LIMIT
        : LIMITS.jsonBodyBytes;
    const read = await readBody(request, limit);
    const bodyBytes = read.isTooLarge ? undefined : read.bytes;
    const entry: JournalEntry = {
      at: runtime.clock().toISOString(),
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
    journal.record(entry);
    let outcome: FakeOutcome;
    try {
      outcome = await route(request, url, entry, bodyBytes);
    } catch (error) {
      if (!(error instanceof ServiceError)) parts.onUnexpectedError(error);
      const serviceError =
        error instanceof ServiceError
          ? error
          : new ServiceError('internal_error', 'The fake service failed unexpectedly.');
      outcome = { kind: 'response', response: errorResponse(serviceError) };
    }
    if (outcome.kind === 'response') {
      outcome.response.headers.set(HEADERS.requestId, requestId);
      outcome.response.headers.set(HEADERS.apiVersion, API_VERSION);
      entry.status = outcome.response.status;
    }
    return outcome;
  };
}
