import { API_VERSION, DEFAULT_PROJECT_ID, HEADERS, LIMITS, type Operation } from '@x/types';
import type { HandlerTable } from '../handler.js';
import { ServiceError } from '../service-error.js';
import { authorize, type Caller, identifyCaller, type KeyLookup, type TokenSets } from './auth.js';
import { type CallRecord, startCallRecord } from './call-record.js';
import { checkPathAndQuery, queryWithBody } from './check-call.js';
import type { IdempotencyStore } from './idempotency.js';
import { answerOnce } from './idempotent-call.js';
import {
  type Interception,
  interceptAfter,
  interceptBefore,
  type RequestOutcome,
} from './outcome.js';
import { dropUnreadBody, type ReadBody, readBody } from './read-body.js';
import {
  binaryBody,
  bodyTooLarge,
  type MultipartReader,
  nestFormParts,
  type ParsedBody,
  parseJson,
  readMultipartInMemory,
  validate,
} from './request-body.js';
import { requestIdOf } from './request-id.js';
import { answerForError, jsonResponse } from './responses.js';
import { operationOf, routeCall } from './route.js';
import { runHandler } from './run-handler.js';

export type { Interception, RequestOutcome } from './outcome.js';

/** A write as the audit log hears of it. */
export interface AuditedCall {
  readonly at: Date;
  readonly caller: Caller;
  /** The project it acted in; undefined for an organization operation. */
  readonly project: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly operation: string;
  readonly status: number;
  readonly clientIp: string;
  readonly userAgent: string;
  readonly durationMs: number;
}

/** What the server knows of a call beyond the request itself. */
export interface CallInfo {
  /** The address the call came from. */
  readonly clientIp?: string | undefined;
  /** The node of a cluster the call arrived at, when another node passed it on to this one. */
  readonly receivedBy?: string | undefined;
}

/** Who made a call and where it acted, once known (for the audit log). */
interface CallParty {
  caller?: Caller;
  project?: string | undefined;
  /** The operation and its path parameters, as routed. */
  routed?: { operation: Operation; params: Readonly<Record<string, string>> };
}

/** A call of an authenticated caller, answered: what a session's telemetry keeps of it. */
export interface AnsweredCall {
  readonly operation: Operation;
  /** The path parameters, as routed (not yet checked). */
  readonly params: Readonly<Record<string, string>>;
  readonly project: string | undefined;
  readonly requestId: string;
  readonly status: number;
  readonly durationMs: number;
  /** Whether its caller may only read (a 403 to such a caller is a refused write). */
  readonly isReadOnly: boolean;
}

/** The parts a service's request handler is made of. */
export interface RequestHandlerOptions<TRuntime> {
  /**
   * What handlers work with in a project, looked up for each call (a fake's reset may replace
   * it); an organization operation gets the default project's.
   */
  readonly runtime: (project: string) => TRuntime;
  /** Finds the API key a token is; without it only the operators' tokens are known. */
  readonly keys?: KeyLookup;
  /**
   * Who calls with a session's jwt (`?jwt=`, on an operation that `acceptsSessionJwt`): a caller
   * in that session's project, or undefined when the jwt does not open that session now.
   */
  readonly sessionCaller?: (sessionId: string, jwt: string) => Promise<Caller | undefined>;
  /**
   * Throws (404) when the call names something no caller may reach, whatever its key: one of
   * the service's own sign-in browsers. Runs once the path is known to be valid.
   */
  readonly assertReachable?: (
    operation: Operation,
    params: Readonly<Record<string, string>>,
  ) => void;
  /**
   * The project a call acts in, from its `X-Kernel-Project-Id` header (undefined when absent)
   * and its caller's key; throws 404 for an unknown or archived project, 403 for one a project
   * key does not reach. Without it every call acts in the default project.
   */
  readonly project?: (caller: Caller, header: string | undefined) => Promise<string>;
  /** Hears about every write of an authenticated caller once it is answered: the audit log. */
  readonly audit?: (entry: AuditedCall) => Promise<void>;
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
  /**
   * The origin every URL handed out is built from (a server's public URL). Default: the origin the
   * request was made to, which a fake in a test wants; a server never takes it from a Host header.
   */
  readonly publicOrigin?: () => string;
  /**
   * What keeps the service from serving, for `GET /readyz` (503 with the reasons); empty when
   * ready. Default: always ready.
   */
  readonly readiness?: () => Promise<readonly string[]>;
  /** Hears about errors no handler expected; the caller gets a plain 500. */
  readonly onUnexpectedError: (error: unknown) => void;
  /** Hears about every call of an authenticated caller once it is answered (telemetry). */
  readonly answered?: (call: AnsweredCall) => void;
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
  /**
   * Web pages outside the catalog that a person opens with a key in their URL (the live view):
   * an answer for the request, or undefined to go on routing it.
   */
  readonly pages?: (request: Request, url: URL) => Promise<Response | undefined>;
}

/**
 * Creates a service's request handler. Each call goes through small steps, each in its own
 * file and tested on its own: request id → call record → the service's own endpoints → route
 * (404/405) → injected faults → auth (401/403) → size (413) → path and query (400) → body
 * (415/400) → idempotency (422, replays) → the operation's handler → the answer, with
 * X-Request-Id and X-API-Version on every one. Errors become answers in one place
 * (`answerForError`). The fake and the self-hosted server both answer through it.
 */
export function createRequestHandler<TRuntime>(
  options: RequestHandlerOptions<TRuntime>,
): (request: Request, info?: CallInfo) => Promise<RequestOutcome> {
  // Serialized once: each call is answered with the same bytes, not a new copy of the document.
  let openApiBody: Uint8Array | undefined;
  const openApi = () =>
    (openApiBody ??= new TextEncoder().encode(JSON.stringify(options.openApiDocument())));
  /** The steps from routing to the answer; any of them may throw the ServiceError to send. */
  async function handle(
    request: Request,
    url: URL,
    record: CallRecord,
    read: ReadBody | undefined,
    party: CallParty,
    info: CallInfo | undefined,
  ): Promise<RequestOutcome> {
    const own =
      (await options.pages?.(request, url)) ??
      (await ownEndpoint(request.method, url.pathname, openApi, options.readiness));
    if (own) return { kind: 'response', response: own };
    const { operation, params: rawParams } = routeCall(request.method, url.pathname);
    record.operation = operation.name;

    const interception = options.intercept?.(operation);
    const intercepted = await interceptBefore(interception, record);
    if (intercepted) return intercepted;

    options.beforeOperation?.();
    const caller = await callerOf(request, url, operation, rawParams);
    // Known from here: a refused write is in the audit log too.
    party.caller = caller;
    party.routed = { operation, params: rawParams };
    authorize(caller, operation);
    const project = await projectOf(operation, caller, request);
    if (operation.scope !== 'org') party.project = project;
    if (read?.isTooLarge) throw bodyTooLarge();
    // A header that gives a query field (an SSE reader's Last-Event-ID) wins over the field.
    for (const [header, field] of Object.entries(operation.queryFromHeaders ?? {})) {
      const value = request.headers.get(header);
      if (value !== null) url.searchParams.set(field, value);
    }
    const { params, query } = checkPathAndQuery(operation, rawParams, url.searchParams);
    options.assertReachable?.(operation, params as Record<string, string>);

    const answer = async (parsed: ParsedBody): Promise<RequestOutcome> => {
      record.body = parsed.journal;
      const body = operation.body
        ? validate(operation.body.schema, parsed.value, 'body', 'body')
        : undefined;
      const response = await answerOnce(options.idempotency, {
        request,
        pathname: url.pathname,
        // Keys are the caller's own, in the project: the same key in another project is another call.
        token: `${project}\n${caller.token}`,
        fingerprint: parsed.fingerprint,
        run: () =>
          runHandler(
            options.handlers,
            {
              operation,
              params,
              query: queryWithBody(operation, query, parsed.value),
              body,
              origin: options.publicOrigin?.() ?? url.origin,
              signal: request.signal,
              runtime: options.runtime(project),
              caller,
              project,
              receivedBy: info?.receivedBy,
            },
            caller.isReadOnly,
          ),
      });
      return interceptAfter(interception, record, response);
    };
    if (read !== undefined) return answer(parseJson(operation, request, read.bytes));
    if (operation.body?.encoding === 'binary') {
      try {
        return await answer(binaryBody(request, operation.body));
      } finally {
        await dropUnreadBody(request);
      }
    }
    if (operation.body?.encoding !== 'multipart') throw new TypeError('unreachable: no body read');
    // A multipart body is read only now, for a caller known to be allowed, and freed once answered.
    const multipart = await (options.readMultipart ?? readMultipartInMemory)(request, {
      bytes: operation.body.maxBytes,
      parts: operation.body.maxParts,
    });
    try {
      return await answer({ ...multipart, value: nestFormParts(multipart.value) });
    } finally {
      await multipart.dispose();
    }
  }

  /** The project a call acts in: an organization operation's is the default project. */
  /**
   * The caller: its bearer token's, or, on an operation that takes one and without a bearer
   * token, the session jwt of the session the path names (401 when it does not open it). The
   * jwt leaves the query either way: it is not a field of the operation.
   */
  async function callerOf(
    request: Request,
    url: URL,
    operation: Operation,
    params: Record<string, string>,
  ): Promise<Caller> {
    const jwt = url.searchParams.get('jwt');
    if (operation.acceptsSessionJwt) url.searchParams.delete('jwt');
    if (!operation.acceptsSessionJwt || jwt === null || request.headers.has(HEADERS.authorization))
      return identifyCaller(options.tokens, request, options.keys);
    const caller = await options.sessionCaller?.(params.id ?? '', jwt);
    if (!caller)
      throw new ServiceError(
        'unauthorized',
        'The jwt is missing, expired, or for another session.',
      );
    return caller;
  }

  async function projectOf(
    operation: Operation,
    caller: Caller,
    request: Request,
  ): Promise<string> {
    if (!options.project) return DEFAULT_PROJECT_ID;
    if (operation.scope === 'org') return caller.project ?? DEFAULT_PROJECT_ID;
    const header = request.headers.get(HEADERS.project)?.trim();
    return options.project(caller, header === '' ? undefined : header);
  }

  async function audit(
    request: Request,
    record: CallRecord,
    party: CallParty,
    status: number,
    info: CallInfo | undefined,
    started: number,
  ): Promise<void> {
    if (!options.audit || !party.caller || request.method === 'GET') return;
    const entry: AuditedCall = {
      at: new Date(record.at),
      caller: party.caller,
      project: party.project,
      method: request.method,
      path: record.path,
      operation: record.operation ?? 'other',
      status,
      clientIp: info?.clientIp ?? '',
      userAgent: request.headers.get('user-agent') ?? '',
      durationMs: Math.round(performance.now() - started),
    };
    // The write happened: a log that cannot keep it is reported, and the answer still goes.
    await options.audit(entry).catch(options.onUnexpectedError);
  }

  return async (request, info) => {
    const started = performance.now();
    const url = new URL(request.url);
    const requestId = requestIdOf(request.headers, options.newRequestId);
    // A multipart or binary body waits for the caller to be authenticated (see handle); a JSON
    // one is read now.
    const encoding = operationOf(request.method, url.pathname)?.body?.encoding;
    const read =
      encoding === 'multipart' || encoding === 'binary'
        ? undefined
        : await readBody(request, LIMITS.jsonBodyBytes);
    const bodyBytes = read?.isTooLarge === false ? read.bytes : undefined;
    const record = startCallRecord(request, url, requestId, options.now(), bodyBytes);
    options.onCall?.(record);
    let outcome: RequestOutcome;
    const party: CallParty = {};
    try {
      outcome = await handle(request, url, record, read, party, info);
    } catch (error) {
      outcome = {
        kind: 'response',
        response: answerForError(error, options.onUnexpectedError),
      };
    }
    if (outcome.kind === 'response') {
      outcome.response.headers.set(HEADERS.requestId, requestId);
      outcome.response.headers.set(HEADERS.apiVersion, API_VERSION);
      record.status = outcome.response.status;
      await audit(request, record, party, outcome.response.status, info, started);
      if (options.answered && party.caller && party.routed) {
        options.answered({
          ...party.routed,
          project: party.project,
          requestId,
          status: outcome.response.status,
          durationMs: Math.round(performance.now() - started),
          isReadOnly: party.caller.isReadOnly,
        });
      }
      // What the call was routed to, for whoever serves the pipeline (the server's metrics).
      if (record.operation) return { ...outcome, operation: record.operation };
    }
    return outcome;
  };
}

/**
 * Step: the service's own endpoints, outside the catalog and open without a token: the OpenAPI
 * document and the health check.
 */
export async function ownEndpoint(
  method: string,
  pathname: string,
  openApiBody: () => Uint8Array,
  readiness?: () => Promise<readonly string[]>,
): Promise<Response | undefined> {
  if (method !== 'GET') return undefined;
  // Liveness: the process answers. `/healthz` is its older name.
  if (pathname === '/livez') return jsonResponse(200, { status: 'ok' });
  if (pathname === '/readyz') {
    const reasons = (await readiness?.()) ?? [];
    return reasons.length === 0
      ? jsonResponse(200, { status: 'ready' })
      : jsonResponse(503, { status: 'not ready', reasons });
  }
  if (pathname === '/openapi.json') {
    return new Response(openApiBody() as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': 'application/json' },
    });
  }
  if (pathname === '/healthz') return jsonResponse(200, { status: 'ok' });
  return undefined;
}
