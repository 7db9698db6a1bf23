import {
  NameTaken,
  type RecordFilter,
  type RecordKeys,
  type RecordStore,
  type RecordTable,
  type RecordTables,
} from '../engines.js';

interface Row<T> {
  record: T;
  keys: RecordKeys;
}

/** Whether a transaction holds the store: its promise while it runs. */
type Hold = () => Promise<unknown> | undefined;

const FREE: Hold = () => undefined;

/**
 * A record table in memory, in insertion order. A write takes effect before its promise is
 * returned (unless a transaction holds the store: then once it ends), so the fake's state read
 * right after a call shows it; `rows()` reads it at once.
 */
export class MemoryRecordTable<T> implements RecordTable<T> {
  readonly #kind: string;
  readonly #rows: Map<string, Row<T>>;
  readonly #hold: Hold;

  constructor(kind = 'record', hold: Hold = FREE, rows = new Map<string, Row<T>>()) {
    this.#kind = kind;
    this.#hold = hold;
    this.#rows = rows;
  }

  /** The same rows for a transaction's own calls, which do not wait for it. */
  within(): MemoryRecordTable<T> {
    return new MemoryRecordTable(this.#kind, FREE, this.#rows);
  }

  /** Waits while a transaction holds the store. */
  async #free(): Promise<void> {
    for (let held = this.#hold(); held; held = this.#hold()) await held.catch(() => undefined);
  }

  async get(id: string, parent?: string): Promise<T | undefined> {
    await this.#free();
    const row = this.#rows.get(id);
    if (!row || (parent !== undefined && row.keys.parent !== parent)) return undefined;
    return row.record;
  }

  async parentOf(id: string): Promise<string | undefined> {
    await this.#free();
    return this.#rows.get(id)?.keys.parent;
  }

  async byName(name: string): Promise<T | undefined> {
    await this.#free();
    const id = this.#namedId(name);
    return id === undefined ? undefined : this.#rows.get(id)?.record;
  }

  put(id: string, record: T, keys: RecordKeys = {}): Promise<void> {
    if (this.#hold()) return this.#free().then(() => this.putNow(id, record, keys));
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

  async delete(id: string): Promise<void> {
    await this.#free();
    this.#rows.delete(id);
  }

  async list(filter: RecordFilter = {}): Promise<T[]> {
    await this.#free();
    return this.rows(filter);
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

const KINDS = [
  'browsers',
  'invocations',
  'pools',
  'replays',
  'extensions',
  'profiles',
  'proxies',
] as const;

/**
 * Every record in memory: the fake's store. A transaction runs alone (other calls wait for it)
 * and puts every table back as it was when its work throws.
 */
export function createMemoryRecordStore(): RecordStore & MemoryRecordTables & { clear(): void } {
  let held: Promise<unknown> | undefined;
  const hold: Hold = () => held;
  const tables = Object.fromEntries(
    KINDS.map((kind) => [kind, new MemoryRecordTable(kind, hold)]),
  ) as unknown as MemoryRecordTables;
  const all = () => Object.values(tables) as MemoryRecordTable<unknown>[];
  const inner = Object.fromEntries(
    KINDS.map((kind) => [kind, (tables[kind] as MemoryRecordTable<unknown>).within()]),
  ) as unknown as RecordTables;
  return {
    ...tables,
    async transaction<R>(work: (tables: RecordTables) => Promise<R>): Promise<R> {
      while (held) await held.catch(() => undefined);
      const run = (async () => {
        const saved = all().map((table) => [table, table.snapshot()] as const);
        try {
          return await work(inner);
        } catch (error) {
          for (const [table, rows] of saved) table.restore(rows);
          throw error;
        }
      })();
      held = run;
      try {
        return await run;
      } finally {
        if (held === run) held = undefined;
      }
    },
    clear: () => {
      for (const table of all()) table.clear();
    },
  };
}
