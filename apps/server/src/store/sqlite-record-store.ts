import type { DatabaseSync } from 'node:sqlite';
import type { RecordKeys, RecordStore, RecordTable } from '@x/service-kernel';

interface Row {
  value: string;
}

/** One kind of record in the store's `records` table, in the order first put. */
class SqliteRecordTable<T> implements RecordTable<T> {
  readonly #database: DatabaseSync;
  readonly #kind: string;

  constructor(database: DatabaseSync, kind: string) {
    this.#database = database;
    this.#kind = kind;
  }

  #one(sql: string, ...values: (string | null)[]): T | undefined {
    const row = this.#database.prepare(sql).get(this.#kind, ...values) as Row | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  get(id: string, parent?: string): T | undefined {
    if (parent === undefined)
      return this.#one('SELECT value FROM records WHERE kind = ? AND id = ?', id);
    return this.#one(
      'SELECT value FROM records WHERE kind = ? AND id = ? AND parent = ?',
      id,
      parent,
    );
  }

  parentOf(id: string): string | undefined {
    const row = this.#database
      .prepare('SELECT parent FROM records WHERE kind = ? AND id = ?')
      .get(this.#kind, id) as { parent: string | null } | undefined;
    return row?.parent ?? undefined;
  }

  byName(name: string): T | undefined {
    return this.#one('SELECT value FROM records WHERE kind = ? AND name = ?', name);
  }

  put(id: string, record: T, keys: RecordKeys = {}): void {
    // A key not given keeps its value; the row keeps its place (its rowid) when replaced.
    this.#database
      .prepare(
        `INSERT INTO records (kind, id, parent, name, is_open, value) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (kind, id) DO UPDATE SET
           value = excluded.value,
           parent = CASE WHEN ? THEN excluded.parent ELSE parent END,
           name = CASE WHEN ? THEN excluded.name ELSE name END,
           is_open = CASE WHEN ? THEN excluded.is_open ELSE is_open END`,
      )
      .run(
        this.#kind,
        id,
        keys.parent ?? null,
        keys.name ?? null,
        keys.isOpen ? 1 : 0,
        JSON.stringify(record),
        keys.parent === undefined ? 0 : 1,
        keys.name === undefined ? 0 : 1,
        keys.isOpen === undefined ? 0 : 1,
      );
  }

  delete(id: string): void {
    this.#database.prepare('DELETE FROM records WHERE kind = ? AND id = ?').run(this.#kind, id);
  }

  list(filter: { readonly parent?: string; readonly isOpen?: boolean } = {}): T[] {
    const conditions = ['kind = ?'];
    const values: (string | number)[] = [this.#kind];
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
  }
}

/** Every record of the service in SQLite: what outlives a restart. */
export function sqliteRecordStore(database: DatabaseSync): RecordStore {
  return {
    browsers: new SqliteRecordTable(database, 'browsers'),
    invocations: new SqliteRecordTable(database, 'invocations'),
    pools: new SqliteRecordTable(database, 'pools'),
    replays: new SqliteRecordTable(database, 'replays'),
    extensions: new SqliteRecordTable(database, 'extensions'),
    profiles: new SqliteRecordTable(database, 'profiles'),
    proxies: new SqliteRecordTable(database, 'proxies'),
  };
}
