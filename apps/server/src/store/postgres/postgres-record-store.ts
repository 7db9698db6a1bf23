import {
  NameTaken,
  type RecordFilter,
  type RecordKeys,
  type RecordStore,
  type RecordStores,
  type RecordTable,
  type RecordTables,
  recordTablesOf,
  scopesOf,
} from '@x/service-kernel';
import type { Pool, PoolClient } from 'pg';
import { type Queryable, storeFailure, storeRows } from './postgres-errors.js';
import { TRANSACTION_LOCK } from './postgres-schema.js';

const isNameTaken = (error: unknown) =>
  error instanceof Error &&
  (error as { code?: string; constraint?: string }).code === '23505' &&
  (error as { constraint?: string }).constraint === 'xb_records_name';

/**
 * One kind of record of one scope in `xb_records`, in the order first put; every value a
 * parameter ($1 the kind, $2 the scope).
 */
class PostgresRecordTable<T> implements RecordTable<T> {
  readonly #db: Queryable;
  readonly #kind: string;
  readonly #scope: string;

  constructor(db: Queryable, scope: string, kind: string) {
    this.#db = db;
    this.#scope = scope;
    this.#kind = kind;
  }

  #rows<R extends object>(sql: string, values: unknown[]): Promise<R[]> {
    return storeRows<R>(this.#db, sql, [this.#kind, this.#scope, ...values]);
  }

  async #value(sql: string, values: unknown[]): Promise<T | undefined> {
    const [row] = await this.#rows<{ value: string }>(sql, values);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  get(id: string, parent?: string): Promise<T | undefined> {
    if (parent === undefined)
      return this.#value(
        'SELECT value FROM xb_records WHERE kind = $1 AND scope = $2 AND id = $3',
        [id],
      );
    return this.#value(
      'SELECT value FROM xb_records WHERE kind = $1 AND scope = $2 AND id = $3 AND parent = $4',
      [id, parent],
    );
  }

  async parentOf(id: string): Promise<string | undefined> {
    const [row] = await this.#rows<{ parent: string | null }>(
      'SELECT parent FROM xb_records WHERE kind = $1 AND scope = $2 AND id = $3',
      [id],
    );
    return row?.parent ?? undefined;
  }

  byName(name: string): Promise<T | undefined> {
    return this.#value(
      'SELECT value FROM xb_records WHERE kind = $1 AND scope = $2 AND name = $3',
      [name],
    );
  }

  async put(id: string, record: T, keys: RecordKeys = {}): Promise<void> {
    // A key not given keeps its value; the row keeps its place (its seq) when replaced.
    try {
      await this.#db.query(
        `INSERT INTO xb_records (kind, scope, id, parent, name, is_open, value)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (kind, id) DO UPDATE SET
           value = excluded.value,
           parent = CASE WHEN $8 THEN excluded.parent ELSE xb_records.parent END,
           name = CASE WHEN $9 THEN excluded.name ELSE xb_records.name END,
           is_open = CASE WHEN $10 THEN excluded.is_open ELSE xb_records.is_open END
         WHERE xb_records.scope = excluded.scope`,
        [
          this.#kind,
          this.#scope,
          id,
          keys.parent ?? null,
          keys.name ?? null,
          keys.isOpen ?? false,
          JSON.stringify(record),
          keys.parent !== undefined,
          keys.name !== undefined,
          keys.isOpen !== undefined,
        ],
      );
    } catch (error) {
      if (isNameTaken(error)) throw new NameTaken(this.#kind, keys.name ?? '');
      throw storeFailure(error);
    }
  }

  async delete(id: string): Promise<void> {
    await this.#rows('DELETE FROM xb_records WHERE kind = $1 AND scope = $2 AND id = $3', [id]);
  }

  async list(filter: RecordFilter = {}): Promise<T[]> {
    const conditions = ['kind = $1', 'scope = $2'];
    const values: unknown[] = [];
    if (filter.parent !== undefined) {
      values.push(filter.parent);
      conditions.push(`parent = $${values.length + 2}`);
    }
    if (filter.isOpen !== undefined) {
      values.push(filter.isOpen);
      conditions.push(`is_open = $${values.length + 2}`);
    }
    const rows = await this.#rows<{ value: string }>(
      `SELECT value FROM xb_records WHERE ${conditions.join(' AND ')} ORDER BY seq`,
      values,
    );
    return rows.map((row) => JSON.parse(row.value) as T);
  }
}

function tablesOf(db: Queryable, scope: string): RecordTables {
  return recordTablesOf((kind) => new PostgresRecordTable(db, scope, kind));
}

/**
 * Every record of the service in PostgreSQL, through a pool of connections. A single call is
 * one statement; a transaction takes a connection of its own and a transaction-wide advisory
 * lock, so transactions (on this server or another on the same database) run one at a time,
 * and what one checks no other changes before it commits.
 */
export function postgresRecordStores(pool: Pool): RecordStores {
  return scopesOf((scope) => scopeStore(pool, scope));
}

/** One scope of the store. */
function scopeStore(pool: Pool, scope: string): RecordStore {
  return {
    ...tablesOf(pool, scope),
    async transaction<R>(work: (tables: RecordTables) => Promise<R>): Promise<R> {
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw storeFailure(error);
      }
      let isBroken = false;
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [TRANSACTION_LOCK]);
        const result = await work(tablesOf(client, scope));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          isBroken = true; // the connection is gone: it is not given back to the pool
        });
        throw storeFailure(error);
      } finally {
        client.release(isBroken);
      }
    },
  };
}
