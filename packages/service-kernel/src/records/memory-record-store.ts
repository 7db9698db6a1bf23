import {
  NameTaken,
  RECORD_KINDS,
  type RecordFilter,
  type RecordKeys,
  type RecordStore,
  type RecordStores,
  type RecordTable,
  type RecordTables,
  recordTablesOf,
  scopesOf,
} from './record-store.js';
import { StoreHold } from './store-hold.js';

interface Row<T> {
  record: T;
  keys: RecordKeys;
}

/**
 * A record table in memory, in insertion order. A write takes effect before its promise is
 * returned (unless a transaction holds the store: then once it ends), so the fake's state read
 * right after a call shows it; `rows()` reads it at once.
 */
export class MemoryRecordTable<T> implements RecordTable<T> {
  readonly #kind: string;
  readonly #rows: Map<string, Row<T>>;
  /** The store's hold; undefined for a transaction's own tables, which do not wait for it. */
  readonly #hold: StoreHold | undefined;

  constructor(kind = 'record', hold?: StoreHold, rows = new Map<string, Row<T>>()) {
    this.#kind = kind;
    this.#hold = hold;
    this.#rows = rows;
  }

  /** The same rows for a transaction's own calls, which do not wait for it. */
  within(): MemoryRecordTable<T> {
    return new MemoryRecordTable(this.#kind, undefined, this.#rows);
  }

  /** Runs `work` once no transaction holds the store (at once for a transaction's tables). */
  async #free<R>(work: () => R): Promise<R> {
    return this.#hold ? ((await this.#hold.after(work)) as R) : work();
  }

  get(id: string, parent?: string): Promise<T | undefined> {
    return this.#free(() => {
      const row = this.#rows.get(id);
      if (!row || (parent !== undefined && row.keys.parent !== parent)) return undefined;
      return row.record;
    });
  }

  parentOf(id: string): Promise<string | undefined> {
    return this.#free(() => this.#rows.get(id)?.keys.parent);
  }

  byName(name: string): Promise<T | undefined> {
    return this.#free(() => {
      const id = this.#namedId(name);
      return id === undefined ? undefined : this.#rows.get(id)?.record;
    });
  }

  put(id: string, record: T, keys: RecordKeys = {}): Promise<void> {
    if (this.#hold?.isHeld) return this.#free(() => this.putNow(id, record, keys));
    try {
      this.putNow(id, record, keys);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `put`, done before it returns (the fake's seeds); throws `NameTaken` as `put` rejects. */
  putNow(id: string, record: T, keys: RecordKeys = {}): void {
    const kept = this.#rows.get(id)?.keys ?? {};
    const merged = Object.fromEntries(
      Object.entries(keys).filter(([, value]) => value !== undefined),
    );
    const next = { ...kept, ...merged };
    if (next.name !== undefined) {
      const holder = this.#namedId(next.name);
      if (holder !== undefined && holder !== id) throw new NameTaken(this.#kind, next.name);
    }
    this.#rows.set(id, { record, keys: next });
  }

  delete(id: string): Promise<void> {
    return this.#free(() => {
      this.#rows.delete(id);
    });
  }

  list(filter: RecordFilter = {}): Promise<T[]> {
    return this.#free(() => this.rows(filter));
  }

  /** `list`, at once. */
  rows(filter: RecordFilter = {}): T[] {
    return [...this.#rows.values()]
      .filter(
        ({ keys }) =>
          (filter.parent === undefined || keys.parent === filter.parent) &&
          (filter.isOpen === undefined || (keys.isOpen ?? false) === filter.isOpen),
      )
      .map((row) => row.record);
  }

  /** Every row as it is now, to put back if a transaction fails. */
  snapshot(): Map<string, Row<T>> {
    return new Map(this.#rows);
  }

  /** Puts back rows `snapshot` gave. */
  restore(rows: Map<string, Row<T>>): void {
    this.#rows.clear();
    for (const [id, row] of rows) this.#rows.set(id, row);
  }

  clear(): void {
    this.#rows.clear();
  }

  #namedId(name: string): string | undefined {
    for (const [id, row] of this.#rows) if (row.keys.name === name) return id;
    return undefined;
  }
}

/** The memory tables by kind, to read at once (the fake's state). */
export type MemoryRecordTables = {
  readonly [K in keyof RecordTables]: MemoryRecordTable<
    RecordTables[K] extends RecordTable<infer T> ? T : never
  >;
};

/** One scope of records in memory, readable at once. */
export type MemoryRecordStore = RecordStore & MemoryRecordTables & { clear(): void };

/** Every scope of records in memory, each readable at once. */
export interface MemoryRecordStores extends RecordStores {
  scope(scope: string): MemoryRecordStore;
  clear(): void;
}

/** Every scope in memory, made when first named; transactions of every scope run one at a time. */
export function createMemoryRecordStores(): MemoryRecordStores {
  const hold = new StoreHold();
  return scopesOf(() => createMemoryRecordStore(hold));
}

/**
 * Every record in memory: the fake's store. A transaction runs alone (other calls wait for it)
 * and puts every table back as it was when its work throws.
 */
export function createMemoryRecordStore(hold = new StoreHold()): MemoryRecordStore {
  const tables = recordTablesOf(
    (kind) => new MemoryRecordTable(kind, hold),
  ) as unknown as MemoryRecordTables;
  const all = () => RECORD_KINDS.map((kind) => tables[kind] as MemoryRecordTable<unknown>);
  const inner = recordTablesOf((kind) =>
    (tables[kind as keyof MemoryRecordTables] as MemoryRecordTable<unknown>).within(),
  );
  return {
    ...tables,
    transaction<R>(work: (tables: RecordTables) => Promise<R>): Promise<R> {
      return hold.alone(async () => {
        const saved = all().map((table) => [table, table.snapshot()] as const);
        try {
          return await work(inner);
        } catch (error) {
          for (const [table, rows] of saved) table.restore(rows);
          throw error;
        }
      });
    },
    clear: () => {
      for (const table of all()) table.clear();
    },
  };
}
