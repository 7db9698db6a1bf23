import type { DatabaseSync } from 'node:sqlite';
import {
  type IdempotencyLookup,
  type IdempotencyStore,
  isKeptAnswer,
  type StoredResponse,
} from '@x/service-kernel';
import { LIMITS } from '@x/types';

interface Row {
  fingerprint: string;
  stored_at: number;
  status: number;
  headers: string;
  body: Uint8Array | null;
}

interface Pending {
  readonly fingerprint: string;
  readonly response: Promise<StoredResponse | undefined>;
}

/**
 * Idempotency keys kept in SQLite, so a retry after a restart still gets the first answer. A
 * repeat of a call still in flight waits for it in memory (one process serves the store).
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #database: DatabaseSync;
  readonly #pending = new Map<string, Pending>();
  readonly #now: () => Date;

  constructor(database: DatabaseSync, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#now = now;
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
    const id = `${scope}\n${key}`;
    const pending = this.#pending.get(id);
    if (pending)
      return pending.fingerprint === fingerprint
        ? { kind: 'replay', response: pending.response }
        : { kind: 'reused' };
    let resolve!: (response: StoredResponse | undefined) => void;
    const response = new Promise<StoredResponse | undefined>((done) => {
      resolve = done;
    });
    this.#pending.set(id, { fingerprint, response });
    return {
      kind: 'new',
      settle: (result) => {
        const isKept = isKeptAnswer(result);
        if (isKept) {
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
        this.#pending.delete(id);
        resolve(isKept ? result : undefined);
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
