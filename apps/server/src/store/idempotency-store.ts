import type { DatabaseSync } from 'node:sqlite';
import {
  type IdempotencyLookup,
  type IdempotencyStore,
  isKeptAnswer,
  MemoryIdempotencyStore,
} from '@x/service-kernel';
import { LIMITS } from '@x/types';

interface Row {
  fingerprint: string;
  stored_at: number;
  status: number;
  headers: string;
  body: Uint8Array | null;
}

/**
 * Idempotency keys kept in SQLite, so a retry after a restart still gets the first answer. A
 * repeat of a call still in flight waits for it through the kernel's in-memory store, which
 * keeps no answer itself (one process serves the store).
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #database: DatabaseSync;
  readonly #inFlight: MemoryIdempotencyStore;
  readonly #now: () => Date;

  constructor(database: DatabaseSync, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#now = now;
    this.#inFlight = new MemoryIdempotencyStore(now, { keepsAnswers: false });
  }

  lookup(scope: string, key: string, fingerprint: string): IdempotencyLookup {
    const now = this.#now().getTime();
    const row = this.#database
      .prepare(
        'SELECT fingerprint, stored_at, status, headers, body FROM idempotency WHERE scope = ? AND key = ?',
      )
      .get(scope, key) as Row | undefined;
    if (row && now - row.stored_at < LIMITS.idempotencyWindowMs) {
      if (row.fingerprint !== fingerprint) return { kind: 'reused' };
      const headers = JSON.parse(row.headers) as [string, string][];
      return {
        kind: 'replay',
        response: Promise.resolve({ status: row.status, headers, body: row.body ?? undefined }),
      };
    }
    const lookup = this.#inFlight.lookup(scope, key, fingerprint);
    if (lookup.kind !== 'new') return lookup;
    return {
      kind: 'new',
      settle: (result) => {
        if (isKeptAnswer(result)) {
          this.#database
            .prepare(
              `INSERT OR REPLACE INTO idempotency (scope, key, fingerprint, stored_at, status, headers, body)
               VALUES (?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(
              scope,
              key,
              fingerprint,
              now,
              result.status,
              JSON.stringify(result.headers),
              result.body ?? null,
            );
        }
        return lookup.settle(result);
      },
    };
  }

  /** Forgets keys older than the 24-hour window. */
  prune(): void {
    this.#database
      .prepare('DELETE FROM idempotency WHERE stored_at < ?')
      .run(this.#now().getTime() - LIMITS.idempotencyWindowMs);
  }
}
