import { CallPromise, type WithResponse } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import { ResponseValidationError } from '../errors/validation-errors.js';
import type { CallParts } from './call-parts.js';
import { type OperationCall, runCall, withDefinition } from './define-call.js';
import type { Route } from './route.js';

/**
 * One page of a list. `items` are its records; it is also an async iterable of every record from
 * here to the end of the list, fetching the next pages as the loop reaches them.
 */
export interface ListPage<T> extends AsyncIterable<T> {
  readonly items: T[];
  /** Whether more records follow (`X-Has-More`). */
  readonly hasMore: boolean;
  /** Where the next page starts (`X-Next-Offset`), when more follow. */
  readonly nextOffset: number | undefined;
  /** Where the next page starts in a list that goes on by cursor (`X-Next-Page-Token`). */
  readonly nextPageToken?: string | undefined;
  /** Fetches the next page (same filters, limit and call options); `undefined` at the end. */
  nextPage(): Promise<ListPage<T> | undefined>;
}

/**
 * What a list method returns: `await` it for one page, or `for await` over it for every record
 * of every page.
 */
export class PagePromise<T> extends CallPromise<ListPage<T>> implements AsyncIterable<T> {
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    yield* await this;
  }
}

function nextOffsetOf(response: Response, offset: number): number | undefined {
  const next = response.headers.get('x-next-offset');
  if (response.headers.get('x-has-more') !== 'true' || next === null) return undefined;
  const value = Number(next);
  // A next page that does not start past this one would loop for ever.
  if (!/^\d+$/.test(next) || !Number.isSafeInteger(value) || value <= offset) {
    throw new ResponseValidationError(
      `X-Next-Offset ${JSON.stringify(next)} does not lead past offset ${offset}`,
      { status: response.status, requestId: response.headers.get('x-request-id') ?? undefined },
    );
  }
  return value;
}

async function fetchPage(
  core: Core,
  route: Route,
  parts: CallParts,
  input: Record<string, unknown>,
  options: CallOptions | undefined,
): Promise<WithResponse<ListPage<unknown>>> {
  const result = await runCall(core, route, parts, input, options);
  const items = result.data as unknown[];
  const { headers } = result.response;
  // A list that goes on by cursor: the token of the next page, when more follow.
  const nextPageToken =
    route.pageToken && headers.get('x-has-more') === 'true'
      ? (headers.get('x-next-page-token') ?? undefined)
      : undefined;
  // The query takes a number or its text ("40"); absent is the list's start.
  const offset = Number(input.offset ?? 0) || 0;
  const nextOffset = route.pageToken ? undefined : nextOffsetOf(result.response, offset);
  const next =
    nextPageToken !== undefined
      ? { ...input, page_token: nextPageToken }
      : nextOffset !== undefined
        ? { ...input, offset: nextOffset }
        : undefined;
  const page: ListPage<unknown> = {
    items,
    hasMore: next !== undefined,
    nextOffset,
    ...(route.pageToken ? { nextPageToken } : {}),
    nextPage: async () =>
      next === undefined ? undefined : await listPage(core, route, parts, next, options),
    async *[Symbol.asyncIterator]() {
      for (let current: ListPage<unknown> | undefined = page; current; ) {
        yield* current.items;
        current = await current.nextPage();
      }
    },
  };
  return { ...result, data: page };
}

function listPage(
  core: Core,
  route: Route,
  parts: CallParts,
  input: Record<string, unknown>,
  options: CallOptions | undefined,
): PagePromise<unknown> {
  return new PagePromise(fetchPage(core, route, parts, input, options));
}

/**
 * Makes the function of a paginated list operation from its route: one page, or every record
 * (`TItem`) with `for await`. Checks, when given, check each page.
 */
// @__NO_SIDE_EFFECTS__
export function defineListCall<TInput = Record<string, unknown>, TItem = unknown>(
  route: Route,
  parts: CallParts = {},
): OperationCall<TInput, PagePromise<TItem>> {
  return withDefinition(
    (core: Core, input?: Record<string, unknown>, options?: CallOptions) =>
      listPage(core, route, parts, input ?? {}, options),
    { route, parts },
  ) as never;
}
