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

/** Most idempotency answers kept; past it the oldest go first (a retry then does the work). */
export const MAX_IDEMPOTENCY_ANSWERS = 100_000;

/** Largest answer body kept for a key; a larger one is not kept (a retry does the work). */
export const MAX_KEPT_ANSWER_BYTES = 1024 * 1024;

/** Most bytes of answers (bodies and headers) kept together; past it the oldest go first. */
export const MAX_IDEMPOTENCY_BYTES = 256 * 1024 * 1024;

/** Answers kept between two prunes by count, so a flood of keys cannot outgrow the cap by much. */
const PRUNE_EVERY_INSERTS = 1_000;

/** Bytes kept between two prunes, for the same reason: at most this past the byte cap. */
const PRUNE_EVERY_BYTES = 16 * 1024 * 1024;

/**
 * Idempotency keys kept in SQLite, so a retry after a restart still gets the first answer. A
 * repeat of a call still in flight waits for it through the kernel's in-memory store, which
 * keeps no answer itself (one process serves the store). Bounded: answers expire after 24 h
 * (pruned each minute by the server), at most MAX_IDEMPOTENCY_ANSWERS are kept and at most
 * MAX_IDEMPOTENCY_BYTES of them (the oldest go first past either), and none larger than
 * MAX_KEPT_ANSWER_BYTES.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #database: DatabaseSync;
  readonly #inFlight: MemoryIdempotencyStore;
  readonly #now: () => Date;
  readonly #maxAnswers: number;
  readonly #maxBytes: number;
  #insertsSincePrune = 0;
  #bytesSincePrune = 0;

  constructor(
    database: DatabaseSync,
    now: () => Date = () => new Date(),
    maxAnswers = MAX_IDEMPOTENCY_ANSWERS,
    maxBytes = MAX_IDEMPOTENCY_BYTES,
  ) {
    this.#database = database;
    this.#now = now;
    this.#maxAnswers = maxAnswers;
    this.#maxBytes = maxBytes;
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
        const size = result?.body?.byteLength ?? 0;
        if (isKeptAnswer(result) && size <= MAX_KEPT_ANSWER_BYTES) {
          const headers = JSON.stringify(result.headers);
          this.#database
            .prepare(
              `INSERT OR REPLACE INTO idempotency (scope, key, fingerprint, stored_at, status, headers, body)
               VALUES (?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(scope, key, fingerprint, now, result.status, headers, result.body ?? null);
          this.#bytesSincePrune += size + headers.length;
          if (
            ++this.#insertsSincePrune >= PRUNE_EVERY_INSERTS ||
            this.#bytesSincePrune >= Math.min(PRUNE_EVERY_BYTES, this.#maxBytes)
          )
            this.prune();
        }
        return lookup.settle(result);
      },
    };
  }

  /** Forgets keys older than the 24-hour window, then the oldest past either cap. */
  prune(): void {
    this.#insertsSincePrune = 0;
    this.#bytesSincePrune = 0;
    this.#database
      .prepare('DELETE FROM idempotency WHERE stored_at <= ?')
      .run(this.#now().getTime() - LIMITS.idempotencyWindowMs);
    this.#database
      .prepare(
        `DELETE FROM idempotency WHERE rowid IN
           (SELECT rowid FROM idempotency ORDER BY stored_at DESC LIMIT -1 OFFSET ?)`,
      )
      .run(this.#maxAnswers);
    // The newest answers whose bytes, added up from the newest, fit the byte cap stay.
    this.#database
      .prepare(
        `DELETE FROM idempotency WHERE rowid IN
           (SELECT rowid FROM
              (SELECT rowid, SUM(IFNULL(length(body), 0) + length(headers))
                 OVER (ORDER BY stored_at DESC, rowid DESC) AS kept
               FROM idempotency)
            WHERE kept > ?)`,
      )
      .run(this.#maxBytes);
  }

  /** Bytes of the answers kept (bodies and headers). */
  bytes(): number {
    return (
      this.#database
        .prepare(
          'SELECT IFNULL(SUM(IFNULL(length(body), 0) + length(headers)), 0) AS n FROM idempotency',
        )
        .get() as { n: number }
    ).n;
  }

  /** How many answers are kept. */
  count(): number {
    return (this.#database.prepare('SELECT count(*) AS n FROM idempotency').get() as { n: number })
      .n;
  }
}
