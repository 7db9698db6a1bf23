import { maxLength, optional, pipe, string } from 'valibot';
import { described } from './describe.js';
import { queryIntegerBetween } from './numbers.js';
import { requestObject } from './request-object.js';
import { NameSchema } from './scalars.js';

/** Most records one page of a list holds, and how many it holds when the caller does not say. */
export const PAGE_LIMIT = { max: 100, default: 20 } as const;

/** Largest `offset` a list takes: past any list a server keeps. */
const MAX_OFFSET = 1_000_000_000;

/**
 * Query entries of a paginated list: `offset` (records skipped, from 0) and `limit` (records on
 * the page, 1–100, default 20). The answer says whether more follow in `X-Has-More`, and where the
 * next page starts in `X-Next-Offset`.
 */
export const pageQueryEntries = {
  offset: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ queryIntegerBetween(0, MAX_OFFSET), 0),
    'records skipped before this page, ≥ 0, default 0',
  ),
  limit: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ queryIntegerBetween(1, PAGE_LIMIT.max),
      PAGE_LIMIT.default,
    ),
    `records on the page, 1–${PAGE_LIMIT.max}, default ${PAGE_LIMIT.default}`,
  ),
};

/** Where a page starts and how many records it holds, as a list's query gives them. */
export interface PageQuery {
  readonly offset: number;
  readonly limit: number;
}

/** One page of a list and what the answer's headers say about the rest. */
export interface Page<T> {
  readonly items: T[];
  /** `X-Has-More` and, when true, `X-Next-Offset` (absolute). */
  readonly headers: Record<string, string>;
}

/** Cuts one page out of `items` (the whole filtered list, in its order). */
export function pageOf<T>(items: readonly T[], offset: number, limit: number): Page<T> {
  const page = items.slice(offset, offset + limit);
  const hasMore = offset + page.length < items.length;
  const headers: Record<string, string> = { 'x-has-more': String(hasMore) };
  if (hasMore) headers['x-next-offset'] = String(offset + page.length);
  return { items: page, headers };
}

/** Longest `query` filter of a list, in characters. */
export const MAX_QUERY_LENGTH = 255;

/** The text of a list's `query` filter: at most `MAX_QUERY_LENGTH` characters. */
export const QueryTextSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string(),
  /* @__PURE__ */ maxLength(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`),
);

/**
 * Query of a list of named records: a page, `name` (exactly that name) and `query` (id or name
 * containing it, case-insensitive).
 */
export const NamedListQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(NameSchema),
    'only the record with exactly this name',
  ),
  query: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(QueryTextSchema),
    `only records whose id or name contains this, any case, ≤ ${MAX_QUERY_LENGTH} characters`,
  ),
});
