import type { RecordKeys, RecordStore, RecordTable } from '../engines.js';

/** A record table in memory, in insertion order. */
export class MemoryRecordTable<T> implements RecordTable<T> {
  readonly #rows = new Map<string, { record: T; keys: RecordKeys }>();

  get(id: string, parent?: string): T | undefined {
    const row = this.#rows.get(id);
    if (!row || (parent !== undefined && row.keys.parent !== parent)) return undefined;
    return row.record;
  }

  parentOf(id: string): string | undefined {
    return this.#rows.get(id)?.keys.parent;
  }

  byName(name: string): T | undefined {
    for (const row of this.#rows.values()) if (row.keys.name === name) return row.record;
    return undefined;
  }

  put(id: string, record: T, keys: RecordKeys = {}): void {
    const kept = this.#rows.get(id)?.keys ?? {};
    const merged = Object.fromEntries(
      Object.entries(keys).filter(([, value]) => value !== undefined),
    );
    this.#rows.set(id, { record, keys: { ...kept, ...merged } });
  }

  delete(id: string): void {
    this.#rows.delete(id);
  }

  list(filter: { readonly parent?: string; readonly isOpen?: boolean } = {}): T[] {
    const rows = [...this.#rows.values()].filter(
      ({ keys }) =>
        (filter.parent === undefined || keys.parent === filter.parent) &&
        (filter.isOpen === undefined || (keys.isOpen ?? false) === filter.isOpen),
    );
    return rows.map((row) => row.record);
  }

  clear(): void {
    this.#rows.clear();
  }
}

/** Every record in memory: the fake's store. */
export function createMemoryRecordStore(): RecordStore & { clear(): void } {
  const tables = {
    browsers: new MemoryRecordTable(),
    invocations: new MemoryRecordTable(),
    pools: new MemoryRecordTable(),
    replays: new MemoryRecordTable(),
    extensions: new MemoryRecordTable(),
    profiles: new MemoryRecordTable(),
    proxies: new MemoryRecordTable(),
  };
  return {
    ...(tables as unknown as RecordStore),
    clear: () => {
      for (const table of Object.values(tables)) table.clear();
    },
  };
}
