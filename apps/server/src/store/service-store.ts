import type { DatabaseSync } from 'node:sqlite';
import type { AuditStore, RecordStores } from '@x/service-kernel';
import pg from 'pg';
import type { Logger } from 'pino';
import { postgresAuditStore, sqliteAuditStore } from './audit-store.js';
import { type BlobStore, postgresBlobStore, sweepBlobChunks } from './blob-store.js';
import { type AnswerTable, postgresAnswers, sqliteAnswers } from './idempotency-store.js';
import { isStoreUnreachable } from './postgres/postgres-errors.js';
import { postgresRecordStores } from './postgres/postgres-record-store.js';
import { migrate } from './postgres/postgres-schema.js';
import { sqliteRecordStores } from './sqlite-record-store.js';

/** Connections a server holds to PostgreSQL at most. */
const POSTGRES_POOL_SIZE = 20;

/** How long a call waits for a connection (a database that is down answers 503 after it). */
const POSTGRES_CONNECT_MS = 5_000;

/** Longest a statement may wait for its answer. */
const POSTGRES_STATEMENT_MS = 30_000;

/** How long readiness waits for the store to answer. */
const READY_CHECK_MS = 3_000;

/** Where the service keeps what outlives a process: records and idempotency answers. */
export interface ServiceStore {
  readonly engine: 'sqlite' | 'postgresql';
  /** Every project's records, and the organization's. */
  readonly records: RecordStores;
  readonly audit: AuditStore;
  readonly answers: AnswerTable;
  /**
   * Where the files records name are kept besides this server's disk (PostgreSQL); undefined
   * on SQLite, whose data directory holds them already.
   */
  readonly blobs: BlobStore | undefined;
  /** The pool of connections, on PostgreSQL (its nodes make a cluster through it). */
  readonly postgres?: pg.Pool | undefined;
  /** Why the store cannot serve now, for /readyz (never the connection string); undefined: ready. */
  notReady(): Promise<string | undefined>;
  close(): Promise<void>;
}

/** The data directory's SQLite file: the embedded default. */
export function sqliteServiceStore(database: DatabaseSync): ServiceStore {
  return {
    engine: 'sqlite',
    records: sqliteRecordStores(database),
    audit: sqliteAuditStore(database),
    answers: sqliteAnswers(database),
    blobs: undefined,
    notReady: async () => undefined,
    close: async () => undefined,
  };
}

/**
 * PostgreSQL at `url`, through a pool of connections, migrated at start (under an advisory lock:
 * servers starting together migrate once). A database that cannot be reached at start stops the
 * start with a line that says so; one that goes away later makes calls answer 503 with
 * Retry-After while it is away, and the pool connects again when it is back. Nothing here logs
 * or answers the URL: it holds a password.
 */
export async function postgresServiceStore(url: string, logger: Logger): Promise<ServiceStore> {
  const pool = new pg.Pool({
    connectionString: url,
    max: POSTGRES_POOL_SIZE,
    connectionTimeoutMillis: POSTGRES_CONNECT_MS,
    // A statement that has no answer in this time (a connection a partition left hanging)
    // fails, and its connection is dropped, instead of holding its call for ever.
    query_timeout: POSTGRES_STATEMENT_MS,
    idleTimeoutMillis: 30_000,
    application_name: 'xb-server',
  });
  // An idle connection the database cut (a restart) is dropped by the pool; only said here.
  pool.on('error', (error) => {
    logger.warn({ code: (error as { code?: string }).code }, 'a PostgreSQL connection was cut');
  });
  try {
    const version = await migrate(pool);
    const swept = await sweepBlobChunks(pool);
    logger.info({ schema: version, sweptChunks: swept }, 'store: PostgreSQL');
  } catch (error) {
    // The failure that stopped the start is the one told; its connections may be broken too.
    await pool.end().catch(() => undefined);
    if (isStoreUnreachable(error))
      throw new Error(
        `PostgreSQL at XB_DATABASE_URL cannot be reached (${(error as { code?: string }).code ?? (error as Error).message}): start it, or check the URL`,
      );
    throw error;
  }
  return {
    engine: 'postgresql',
    records: postgresRecordStores(pool),
    audit: postgresAuditStore(pool),
    answers: postgresAnswers(pool),
    blobs: postgresBlobStore(pool),
    postgres: pool,
    async notReady() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), READY_CHECK_MS);
      });
      try {
        await Promise.race([pool.query('SELECT 1'), timeout]);
        return undefined;
      } catch (error) {
        const code = (error as { code?: string }).code;
        return `the store (PostgreSQL) does not answer${code ? ` (${code})` : ''}: calls that read or write records answer 503 until it does`;
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => pool.end(),
  };
}
