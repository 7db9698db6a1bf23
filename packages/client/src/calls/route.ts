import { type Operation, operationFields } from '@x/types';
import { safeParse } from 'valibot';

/** What a success response carries, as a route knows it: no schema, only the kind. */
export type ResponseKind = 'json' | 'binary' | 'event-stream' | 'none';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * An operation of the catalog (`@x/types`'s `operations`), as far as the client reads it: every
 * catalog operation is one. Its schemas are opaque here, so naming this type costs an app none
 * of the catalog's types.
 */
export interface CatalogEntry {
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly pathParams?: unknown;
  readonly query?: unknown;
  readonly body?:
    | { readonly encoding: 'json' | 'multipart'; readonly schema: unknown }
    | { readonly encoding: 'binary'; readonly mediaType: string; readonly schema: unknown };
  readonly responses: Readonly<Record<number, { readonly kind: ResponseKind }>>;
  readonly access: 'read' | 'contents' | 'write';
  readonly paginated?: true;
  readonly pageToken?: true;
  readonly serverTimeMs?: (body: never) => number;
}

/**
 * An operation without its schemas: everything needed to send a call and read its answer, and
 * nothing that needs valibot. The operation functions are built on routes, so an app bundles a
 * few dozen bytes per operation it calls; `routeOf` derives one from a catalog operation, and
 * `checked` puts the operation's schemas back on a function.
 */
export interface Route {
  /** The operation's dotted name (`browserPools.get`). */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path template with `{param}` placeholders, relative to the base URL. */
  readonly path: string;
  /** The names of its query parameters, in the order they are sent. */
  readonly query?: readonly string[];
  /** How its body travels; every input field not in the path or the query goes there. */
  readonly body?: 'json' | 'multipart' | 'binary';
  /** A JSON body that is left out when no field of it is given (the server's defaults apply). */
  readonly bodyOptional?: true;
  /** The media type of a binary body. */
  readonly mediaType?: string;
  /** The kind of each success response, by status. */
  readonly responses: Readonly<Record<number, ResponseKind>>;
  /** A write operation (it acts): a POST then carries an idempotency key and may be retried with it. */
  readonly write?: true;
  /** A list taken a page at a time (`offset`, `limit`, `X-Has-More`, `X-Next-Offset`). */
  readonly paginated?: true;
  /** Its pages go on by cursor (`page_token`, `X-Next-Page-Token`), not by offset. */
  readonly pageToken?: true;
  /** How long the server may take, from the body as sent (see the catalog). */
  readonly serverTimeMs?: (body: never) => number;
}

/** The route of a catalog operation: what an operation function of it carries. */
export function routeOf(entry: CatalogEntry): Route {
  const operation = entry as Operation;
  const responses: Record<number, ResponseKind> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[Number(status)] = response.kind;
  }
  const body = operation.body;
  const query = operationFields(operation).query;
  return {
    name: operation.name,
    method: operation.method,
    path: operation.path,
    ...(query.length > 0 ? { query } : {}),
    ...(body ? { body: body.encoding } : {}),
    ...(body?.encoding === 'json' && safeParse(body.schema, undefined).success
      ? { bodyOptional: true }
      : {}),
    ...(body?.encoding === 'binary' ? { mediaType: body.mediaType } : {}),
    responses,
    ...(operation.access === 'write' ? { write: true } : {}),
    ...(operation.paginated ? { paginated: true } : {}),
    ...(operation.pageToken ? { pageToken: true } : {}),
    ...(operation.serverTimeMs ? { serverTimeMs: operation.serverTimeMs } : {}),
  };
}
