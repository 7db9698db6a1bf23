import type { DatabaseSync } from 'node:sqlite';
import {
  NameTaken,
  type RecordFilter,
  type RecordKeys,
  type RecordStore,
  type RecordStores,
  type RecordTable,
  type RecordTables,
  recordTablesOf,
  StoreHold,
  scopesOf,
} from '@x/service-kernel';

interface Row {
  value: string;
}

/** Runs one statement of the store: at once, or after the transaction that holds the store. */
type Gate = <T>(work: () => T) => Promise<T>;

/** SQLite's words for a second row with a unique key. */
const isUniqueViolation = (error: unknown) =>
  error instanceof Error &&
  /UNIQUE constraint failed: records\.kind, records\.scope, records\.name/.test(error.message);

/** One kind of record of one scope in the store's `records` table, in the order first put. */
class SqliteRecordTable<T> implements RecordTable<T> {
  readonly #database: DatabaseSync;
  readonly #kind: string;
  readonly #scope: string;
  readonly #gate: Gate;

  constructor(database: DatabaseSync, scope: string, kind: string, gate: Gate) {
    this.#database = database;
    this.#scope = scope;
    this.#kind = kind;
    this.#gate = gate;
  }

  #one(sql: string, ...values: (string | null)[]): Promise<T | undefined> {
    return this.#gate(() => {
      const row = this.#database.prepare(sql).get(this.#kind, this.#scope, ...values) as
        | Row
        | undefined;
      return row ? (JSON.parse(row.value) as T) : undefined;
    });
  }

  get(id: string, parent?: string): Promise<T | undefined> {
    if (parent === undefined)
      return this.#one('SELECT value FROM records WHERE kind = ? AND scope = ? AND id = ?', id);
    return this.#one(
      'SELECT value FROM records WHERE kind = ? AND scope = ? AND id = ? AND parent = ?',
      id,
      parent,
    );
  }

  parentOf(id: string): Promise<string | undefined> {
    return this.#gate(() => {
      const row = this.#database
        .prepare('SELECT parent FROM records WHERE kind = ? AND scope = ? AND id = ?')
        .get(this.#kind, this.#scope, id) as { parent: string | null } | undefined;
      return row?.parent ?? undefined;
    });
  }

  byName(name: string): Promise<T | undefined> {
    return this.#one('SELECT value FROM records WHERE kind = ? AND scope = ? AND name = ?', name);
  }

  put(id: string, record: T, keys: RecordKeys = {}): Promise<void> {
    return this.#gate(() => {
      // A key not given keeps its value; the row keeps its place (its rowid) when replaced.
      try {
        this.#database
          .prepare(
            `INSERT INTO records (kind, scope, id, parent, name, is_open, value)
             VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (kind, id) DO UPDATE SET
               value = excluded.value,
               parent = CASE WHEN ? THEN excluded.parent ELSE parent END,
               name = CASE WHEN ? THEN excluded.name ELSE name END,
               is_open = CASE WHEN ? THEN excluded.is_open ELSE is_open END
             WHERE records.scope = excluded.scope`,
          )
          .run(
            this.#kind,
            this.#scope,
            id,
            keys.parent ?? null,
            keys.name ?? null,
            keys.isOpen ? 1 : 0,
            JSON.stringify(record),
            keys.parent === undefined ? 0 : 1,
            keys.name === undefined ? 0 : 1,
            keys.isOpen === undefined ? 0 : 1,
          );
      } catch (error) {
        if (isUniqueViolation(error)) throw new NameTaken(this.#kind, keys.name ?? '');
        throw error;
      }
    });
  }

  delete(id: string): Promise<void> {
    return this.#gate(() => {
      this.#database
        .prepare('DELETE FROM records WHERE kind = ? AND scope = ? AND id = ?')
        .run(this.#kind, this.#scope, id);
    });
  }

  list(filter: RecordFilter = {}): Promise<T[]> {
    return this.#gate(() => {
      const conditions = ['kind = ?', 'scope = ?'];
      const values: (string | number)[] = [this.#kind, this.#scope];
      if (filter.parent !== undefined) {
        conditions.push('parent = ?');
        values.push(filter.parent);
      }
      if (filter.isOpen !== undefined) {
        conditions.push('is_open = ?');
        values.push(filter.isOpen ? 1 : 0);
      }
      const rows = this.#database
        .prepare(`SELECT value FROM records WHERE ${conditions.join(' AND ')} ORDER BY rowid`)
        .all(...values) as unknown as Row[];
      return rows.map((row) => JSON.parse(row.value) as T);
    });
  }
}

function tablesOf(database: DatabaseSync, scope: string, gate: Gate): RecordTables {
  return recordTablesOf((kind) => new SqliteRecordTable(database, scope, kind, gate));
}

/**
 * Every record of the service in SQLite: what outlives a restart. SQLite answers at once (the
 * file is local), so each call is one synchronous statement behind a promise. One connection
 * serves every call: while a transaction waits between its statements, every other call waits
 * for it to end (a statement run meanwhile would join the transaction), so a transaction sees
 * no write it did not make and makes none that others see before it commits.
 */
export function sqliteRecordStores(database: DatabaseSync): RecordStores {
  const hold = new StoreHold();
  return scopesOf((scope) => scopeStore(database, scope, hold));
}

/** One scope of the store; every scope shares one connection and so one hold. */
function scopeStore(database: DatabaseSync, scope: string, hold: StoreHold): RecordStore {
  const gate: Gate = (work) => hold.after(work) as Promise<ReturnType<typeof work>>;
  const inside: Gate = async (work) => work();
  const tables = tablesOf(database, scope, gate);
  const transactionTables = tablesOf(database, scope, inside);
  return {
    ...tables,
    transaction<R>(work: (tables: RecordTables) => Promise<R>): Promise<R> {
      return hold.alone(async () => {
        database.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(transactionTables);
          database.exec('COMMIT');
          return result;
        } catch (error) {
          database.exec('ROLLBACK');
          throw error;
        }
      });
    },
  };
}
