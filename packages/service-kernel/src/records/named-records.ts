import { refusals } from '../messages.js';
import type { ServiceError } from '../service-error.js';
import { NameTaken, type RecordKeys, type RecordTable } from './record-store.js';

/** A record by id, then by name: what `{id_or_name}` in a path means. */
export async function findByIdOrName<T>(
  table: RecordTable<T>,
  idOrName: string,
): Promise<T | undefined> {
  return (await table.get(idOrName)) ?? (await table.byName(idOrName));
}

/**
 * Puts a named record. The caller has looked for the name first (its 409 is the common case);
 * the store's own refusal covers a call that took the name in between, with the same answer.
 */
export async function putNamed<T>(
  table: RecordTable<T>,
  id: string,
  record: T,
  name: string | undefined,
  kind: string,
  keys: Omit<RecordKeys, 'name'> = {},
  taken: (name: string) => ServiceError = (name) => refusals.nameTaken(kind, name),
): Promise<void> {
  try {
    await table.put(id, record, { ...keys, name });
  } catch (error) {
    if (error instanceof NameTaken) throw taken(error.taken);
    throw error;
  }
}
