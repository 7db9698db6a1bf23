import type { DatabaseSync } from 'node:sqlite';
import {
  type IdempotencyLookup,
  type IdempotencyStore,
  isKeptAnswer,
  MemoryIdempotencyStore,
} from '@x/service-kernel';
import { LIMITS } from '@x/types';
import type { Pool } from 'pg';
import { storeRows } from './postgres/postgres-errors.js';

/** An answer as kept for its key. */
export interface KeptAnswer {
  readonly fingerprint: string;
  readonly storedAt: number;
  readonly status: number;
  /** The headers as JSON ([name, value] pairs). */
  readonly headers: string;
  readonly body: Uint8Array | null;
}

/** Where answers are kept: a table of the SQLite store or of PostgreSQL. */
export interface AnswerTable {
  find(scope: string, key: string): Promise<KeptAnswer | undefined>;
  keep(scope: string, key: string, answer: KeptAnswer): Promise<void>;
  /** Forgets answers stored at or before `before`, then the oldest past either cap. */
  prune(before: number, maxAnswers: number, maxBytes: number): Promise<void>;
  /** Bytes of the answers kept (bodies and headers). */
  bytes(): Promise<number>;
  count(): Promise<number>;
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
 * Idempotency keys kept in the store, so a retry after a restart still gets the first answer. A
 * repeat of a call still in flight waits for it through the kernel's in-memory store, which
 * keeps no answer itself. Bounded: answers expire after 24 h (pruned each minute by the
 * server), at most MAX_IDEMPOTENCY_ANSWERS are kept and at most MAX_IDEMPOTENCY_BYTES of them
 * (the oldest go first past either), and none larger than MAX_KEPT_ANSWER_BYTES. An answer the
 * store cannot take is not kept (the caller has it; a retry does the work again).
 */
export class KeptIdempotencyStore implements IdempotencyStore {
  readonly #answers: AnswerTable;
  readonly #inFlight: MemoryIdempotencyStore;
  readonly #now: () => Date;
  readonly #maxAnswers: number;
  readonly #maxBytes: number;
  readonly #onError: (error: unknown) => void;
  #insertsSincePrune = 0;
  #bytesSincePrune = 0;

  constructor(
    answers: AnswerTable,
    options: {
      readonly now?: () => Date;
      readonly maxAnswers?: number;
      readonly maxBytes?: number;
      readonly onError?: (error: unknown) => void;
    } = {},
  ) {
    this.#answers = answers;
    this.#now = options.now ?? (() => new Date());
    this.#maxAnswers = options.maxAnswers ?? MAX_IDEMPOTENCY_ANSWERS;
    this.#maxBytes = options.maxBytes ?? MAX_IDEMPOTENCY_BYTES;
    this.#onError = options.onError ?? (() => undefined);
    this.#inFlight = new MemoryIdempotencyStore(this.#now, { keepsAnswers: false });
  }

  async lookup(scope: string, key: string, fingerprint: string): Promise<IdempotencyLookup> {
    const now = this.#now().getTime();
    const row = await this.#answers.find(scope, key);
    if (row && now - row.storedAt < LIMITS.idempotencyWindowMs) {
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
      settle: async (result) => {
        const size = result?.body?.byteLength ?? 0;
        if (isKeptAnswer(result) && size <= MAX_KEPT_ANSWER_BYTES) {
          const headers = JSON.stringify(result.headers);
          try {
            await this.#answers.keep(scope, key, {
              fingerprint,
              storedAt: now,
              status: result.status,
              headers,
              body: result.body ?? null,
            });
            this.#bytesSincePrune += size + headers.length;
            if (
              ++this.#insertsSincePrune >= PRUNE_EVERY_INSERTS ||
              this.#bytesSincePrune >= Math.min(PRUNE_EVERY_BYTES, this.#maxBytes)
            )
              await this.prune();
          } catch (error) {
            this.#onError(error);
          }
        }
        return lookup.settle(result);
      },
    };
  }

  /** Forgets keys older than the 24-hour window, then the oldest past either cap. */
  prune(): Promise<void> {
    this.#insertsSincePrune = 0;
    this.#bytesSincePrune = 0;
    return this.#answers.prune(
      this.#now().getTime() - LIMITS.idempotencyWindowMs,
      this.#maxAnswers,
      this.#maxBytes,
    );
  }

  /** Bytes of the answers kept (bodies and headers). */
  bytes(): Promise<number> {
    return this.#answers.bytes();
  }

  /** How many answers are kept. */
  count(): Promise<number> {
    return this.#answers.count();
  }
}

interface Row {
  fingerprint: string;
  stored_at: number;
  status: number;
  headers: string;
  body: Uint8Array | null;
}

const keptOf = (row: Row): KeptAnswer => ({
  fingerprint: row.fingerprint,
  storedAt: Number(row.stored_at),
  status: row.status,
  headers: row.headers,
  // PostgreSQL gives a Buffer: answered as the plain bytes SQLite gives.
  body: row.body && new Uint8Array(row.body.buffer, row.body.byteOffset, row.body.byteLength),
});

/** An answer's columns in the order both tables take them: scope, key, then the answer. */
const keptValues = (scope: string, key: string, answer: KeptAnswer) =>
  [
    scope,
    key,
    answer.fingerprint,
    answer.storedAt,
    answer.status,
    answer.headers,
    answer.body && Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength),
  ] as const;

/** The answers in the SQLite store's `idempotency` table. */
export function sqliteAnswers(database: DatabaseSync): AnswerTable {
  return {
    async find(scope, key) {
      const row = database
        .prepare(
          'SELECT fingerprint, stored_at, status, headers, body FROM idempotency WHERE scope = ? AND key = ?',
        )
        .get(scope, key) as Row | undefined;
      return row && keptOf(row);
    },
    async keep(scope, key, answer) {
      database
        .prepare(
          `INSERT OR REPLACE INTO idempotency (scope, key, fingerprint, stored_at, status, headers, body)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(...keptValues(scope, key, answer));
    },
    async prune(before, maxAnswers, maxBytes) {
      database.prepare('DELETE FROM idempotency WHERE stored_at <= ?').run(before);
      database
        .prepare(
          `DELETE FROM idempotency WHERE rowid IN
             (SELECT rowid FROM idempotency ORDER BY stored_at DESC LIMIT -1 OFFSET ?)`,
        )
        .run(maxAnswers);
      // The newest answers whose bytes, added up from the newest, fit the byte cap stay.
      database
        .prepare(
          `DELETE FROM idempotency WHERE rowid IN
             (SELECT rowid FROM
                (SELECT rowid, SUM(IFNULL(length(body), 0) + length(headers))
                   OVER (ORDER BY stored_at DESC, rowid DESC) AS kept
                 FROM idempotency)
              WHERE kept > ?)`,
        )
        .run(maxBytes);
    },
    async bytes() {
      return (
        database
          .prepare(
            'SELECT IFNULL(SUM(IFNULL(length(body), 0) + length(headers)), 0) AS n FROM idempotency',
          )
          .get() as { n: number }
      ).n;
    },
    async count() {
      return (database.prepare('SELECT count(*) AS n FROM idempotency').get() as { n: number }).n;
    },
  };
}

/** The answers in PostgreSQL's `xb_idempotency` table; every value a parameter. */
export function postgresAnswers(pool: Pool): AnswerTable {
  const query = <R extends object>(sql: string, values: unknown[] = []) =>
    storeRows<R>(pool, sql, values);
  return {
    async find(scope, key) {
      const [row] = await query<Row>(
        'SELECT fingerprint, stored_at, status, headers, body FROM xb_idempotency WHERE scope = $1 AND key = $2',
        [scope, key],
      );
      return row && keptOf(row);
    },
    async keep(scope, key, answer) {
      await query(
        `INSERT INTO xb_idempotency (scope, key, fingerprint, stored_at, status, headers, body)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint,
           stored_at = excluded.stored_at, status = excluded.status,
           headers = excluded.headers, body = excluded.body`,
        [...keptValues(scope, key, answer)],
      );
    },
    async prune(before, maxAnswers, maxBytes) {
      await query('DELETE FROM xb_idempotency WHERE stored_at <= $1', [before]);
      await query(
        `DELETE FROM xb_idempotency WHERE (scope, key) IN
           (SELECT scope, key FROM xb_idempotency ORDER BY stored_at DESC OFFSET $1)`,
        [maxAnswers],
      );
      await query(
        `DELETE FROM xb_idempotency WHERE (scope, key) IN
           (SELECT scope, key FROM
              (SELECT scope, key, SUM(COALESCE(length(body), 0) + length(headers))
                 OVER (ORDER BY stored_at DESC, scope DESC, key DESC) AS kept
               FROM xb_idempotency) AS running
            WHERE kept > $1)`,
        [maxBytes],
      );
    },
    async bytes() {
      const [row] = await query<{ n: string }>(
        'SELECT COALESCE(SUM(COALESCE(length(body), 0) + length(headers)), 0) AS n FROM xb_idempotency',
      );
      return Number(row?.n ?? 0);
    },
    async count() {
      const [row] = await query<{ n: string }>('SELECT count(*) AS n FROM xb_idempotency');
      return Number(row?.n ?? 0);
    },
  };
}
