import type { GenericSchema } from 'valibot';
import type { ErrorStatus } from '../errors/error-codes.js';

/** Any valibot schema, whatever its input and output. */
// biome-ignore lint/suspicious/noExplicitAny: a catalog entry holds schemas of every type
export type AnySchema = GenericSchema<any, any>;

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How a request body travels. A JSON body schema that accepts `undefined` makes the body optional.
 * A multipart form's nested fields travel as bracketed part names (`files[0][dest_path]`). A
 * binary body is the raw bytes, streamed: its schema is `{content}`, which a handler receives as a
 * stream, read only once the call is authenticated and its path and query are valid.
 */
export type OperationBody =
  | { readonly encoding: 'json'; readonly schema: AnySchema }
  | {
      readonly encoding: 'multipart';
      readonly schema: AnySchema;
      /** Largest body taken, in bytes, the form's framing included (larger: 413). */
      readonly maxBytes: number;
      /** Most parts the form may have (more: 400). */
      readonly maxParts: number;
    }
  | {
      readonly encoding: 'binary';
      readonly mediaType: string;
      readonly schema: AnySchema;
      /** Largest body taken, in bytes: a larger declared Content-Length is 413 at once. */
      readonly maxBytes: number;
    };

/** What a successful response carries. */
export type OperationResponse =
  | { readonly kind: 'json'; readonly schema: AnySchema }
  | {
      readonly kind: 'binary';
      readonly mediaType: string;
      /** Other media types it answers with when the query asks for another format. */
      readonly otherMediaTypes?: readonly string[];
    }
  | { readonly kind: 'event-stream'; readonly eventSchema: AnySchema }
  | { readonly kind: 'none' };

/**
 * Which node of a cluster answers an operation (a single server answers everything itself):
 * - `here`: the node the call arrives at: what it reads and writes is in the shared store, or is
 *   the organization's (a pool's acquire too: that node asks the pool's holder for a browser);
 * - `session`: the node that runs the browser its `id` names (an id, or a name looked up);
 * - `run`: the node that runs the deployment or invocation its `id` names;
 * - `pool`: the node that holds the pool its `id_or_name` names;
 * - `place`: the least loaded node with room (a new browser);
 * - `invoke`: the node that runs the deployment of the app its body names;
 * - `gather`: every node, their answers put together (a list of pools);
 * - `node`: the node its `id` names (a drain).
 */
export type ClusterRoute =
  | 'here'
  | 'session'
  | 'run'
  | 'pool'
  | 'place'
  | 'invoke'
  | 'gather'
  | 'node';

/**
 * One operation of the API: everything the client, the fake, the server, the CLI and the OpenAPI
 * document need to know about it.
 */
export interface Operation {
  /** Dotted name, also the client method path: `browserPools.get`. */
  readonly name: string;
  /** Which node of a cluster answers it: where what it names lives. */
  readonly clusterRoute: ClusterRoute;
  /** One sentence for people (CLI help, OpenAPI summary). */
  readonly summary: string;
  /** Section of the interface description, for the seven it specifies. */
  readonly specSection?: string;
  readonly method: HttpMethod;
  /** Path template with `{param}` placeholders, relative to the base URL. */
  readonly path: string;
  /** Schema of the decoded path parameters, when the path has any. */
  readonly pathParams?: AnySchema;
  /** Schema of the query parameters, when the operation takes any. */
  readonly query?: AnySchema;
  readonly body?: OperationBody;
  /**
   * Its query parameters are also accepted as a JSON body (a field given there wins over the
   * query), for clients that send them so. The catalog's own client always uses the query.
   */
  readonly acceptsQueryInBody?: boolean;
  /**
   * Request headers that also give a query field (`last-event-id` → `last_event_id`, as an SSE
   * reader resumes): the header, when sent, wins over the field.
   */
  readonly queryFromHeaders?: Readonly<Record<string, string>>;
  /**
   * A list taken a page at a time: `offset` and `limit` in its query, a JSON array in its 200
   * answer, whose `X-Has-More` header says whether more follow and `X-Next-Offset` where (an
   * absolute offset; absent, or `X-Has-More: false`, ends the list).
   */
  readonly paginated?: true;
  /**
   * Its pages go on by cursor, not by offset: `page_token` and `limit` in its query, and the
   * answer's `X-Next-Page-Token` (with `X-Has-More`) where the next page starts.
   */
  readonly pageToken?: true;
  /** Success responses by status. */
  readonly responses: Readonly<Record<number, OperationResponse>>;
  /** Error statuses the operation may answer with, each with an Error body. */
  readonly errorStatuses: readonly ErrorStatus[];
  /**
   * Who may call it. `read`: records and metrics, which any token reads. `contents`: what a
   * session or a stored object holds (its files and their names, process output, screen,
   * clipboard, a saved profile, an extension's archive, a recording): a full token only, as a
   * read-only token gets 403. `write`: acts; a full token only, and a POST takes an idempotency key.
   */
  readonly access: 'read' | 'contents' | 'write';
  /**
   * `org`: it acts on the organization (projects, API keys, limits, the audit log), not in one
   * project, so the project header does not apply. Absent: it acts in the caller's project.
   */
  readonly scope?: 'org';
  /**
   * It may also be called with the session's own jwt (`?jwt=`, as its `cdp_ws_url` carries it)
   * instead of a bearer token: SDKs send it so to the session's `base_url`. The jwt opens that
   * session only, and only what its DevTools URL already opens.
   */
  readonly acceptsSessionJwt?: true;
  /**
   * How long the server may legitimately take before it answers, in milliseconds, given the body
   * as the caller sent it (a field left out means its default; `undefined` for no body): a
   * client adds it to its own time-out (an acquire that waits, slow typing). Schema-free, so a
   * client can carry it without the operation's schemas (`catalog/server-time.ts`).
   */
  readonly serverTimeMs?: (body: never) => number;
}

/** Statuses every authenticated operation may answer with. */
const COMMON_ERROR_STATUSES = [401, 403, 429, 500, 503] as const;

/**
 * Defines a catalog entry, keeping its literal types for typed clients. Error statuses shared by
 * every operation (auth, overload, internal) are added here so no entry can forget them.
 */
// @__NO_SIDE_EFFECTS__
export function defineOperation<const T extends Operation>(
  operation: T,
): T & { readonly errorStatuses: readonly ErrorStatus[] } {
  const statuses = new Set<ErrorStatus>([...COMMON_ERROR_STATUSES, ...operation.errorStatuses]);
  if (operation.pathParams || operation.query || operation.body) statuses.add(400);
  if (operation.body?.encoding === 'json') statuses.add(413).add(415);
  if (operation.body?.encoding === 'binary') statuses.add(413);
  if (operation.method === 'POST' && operation.access === 'write') statuses.add(422);
  return { ...operation, errorStatuses: [...statuses].sort((a, b) => a - b) };
}

/** The success statuses of an operation, in ascending order. */
export function successStatuses(operation: Operation): number[] {
  return Object.keys(operation.responses)
    .map(Number)
    .sort((a, b) => a - b);
}
