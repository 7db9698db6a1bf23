import { type Page, pageOf } from '@x/types';

/** Filters of a list of named records: a page, `name` exactly, `query` in the id or name. */
export interface NamedListQuery {
  readonly offset: number;
  readonly limit: number;
  readonly name?: string | undefined;
  readonly query?: string | undefined;
}

/** One page of named records (in their order): `name` exact, `query` in the id or name, any case. */
export function namedPage<T extends { readonly id: string; readonly name?: string | undefined }>(
  records: readonly T[],
  { offset, limit, name, query }: NamedListQuery,
): Page<T> {
  const needle = query?.toLowerCase();
  const matching = records.filter(
    (record) =>
      (name === undefined || record.name === name) &&
      (needle === undefined ||
        record.id.toLowerCase().includes(needle) ||
        (record.name?.toLowerCase().includes(needle) ?? false)),
  );
  return pageOf(matching, offset, limit);
}
