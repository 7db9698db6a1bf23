import type { DatabaseSync } from 'node:sqlite';
import { type AuditQuery, type AuditStore, auditMatches } from '@x/service-kernel';
import type { AuditLogEntry } from '@x/types';
import type { Pool } from 'pg';
import { storeFailure, storeRows } from './postgres/postgres-errors.js';

/** Rows read per batch while a page is filtered by its search text. */
const BATCH = 500;

/**
 * Reads a page newest first, batch by batch from `batch` (entries before a cursor, in the time
 * range, newest first), keeping those the query's search and filters match.
 */
async function pageFrom(
  query: AuditQuery,
  batch: (before: { timestamp: string; id: string } | undefined) => Promise<AuditLogEntry[]>,
): Promise<AuditLogEntry[]> {
  const found: AuditLogEntry[] = [];
  let before = query.after;
  for (;;) {
    const rows = await batch(before);
    for (const entry of rows) {
      if (auditMatches(entry, query)) found.push(entry);
      if (found.length >= query.limit) return found;
    }
    const last = rows.at(-1);
    if (rows.length < BATCH || !last) return found;
    before = { timestamp: last.timestamp, id: last.id };
  }
}

/** The audit log in the data directory's SQLite file (`audit_log`). */
export function sqliteAuditStore(database: DatabaseSync): AuditStore {
  const insert = database.prepare(
    'INSERT INTO audit_log (timestamp, id, project, value) VALUES (?, ?, ?, ?)',
  );
  return {
    async append(entry) {
      insert.run(entry.timestamp, entry.id, entry.project_id, JSON.stringify(entry));
    },
    page(query) {
      const start = query.start.toISOString();
      const end = query.end.toISOString();
      return pageFrom(query, async (before) => {
        const rows = (before
          ? database
              .prepare(
                `SELECT value FROM audit_log WHERE timestamp >= ? AND timestamp < ?
                   AND (timestamp < ? OR (timestamp = ? AND id < ?))
                   ORDER BY timestamp DESC, id DESC LIMIT ?`,
              )
              .all(start, end, before.timestamp, before.timestamp, before.id, BATCH)
          : database
              .prepare(
                `SELECT value FROM audit_log WHERE timestamp >= ? AND timestamp < ?
                   ORDER BY timestamp DESC, id DESC LIMIT ?`,
              )
              .all(start, end, BATCH)) as unknown as { value: string }[];
        return rows.map((row) => JSON.parse(row.value) as AuditLogEntry);
      });
    },
    async prune(before) {
      const result = database
        .prepare('DELETE FROM audit_log WHERE timestamp < ?')
        .run(before.toISOString());
      return Number(result.changes);
    },
  };
}

/** The audit log in PostgreSQL (`xb_audit_log`). */
export function postgresAuditStore(pool: Pool): AuditStore {
  return {
    async append(entry) {
      await storeRows(
        pool,
        'INSERT INTO xb_audit_log (at, id, project, value) VALUES ($1, $2, $3, $4)',
        [entry.timestamp, entry.id, entry.project_id, JSON.stringify(entry)],
      );
    },
    page(query) {
      return pageFrom(query, async (before) => {
        const rows = before
          ? await storeRows<{ value: string }>(
              pool,
              `SELECT value FROM xb_audit_log WHERE at >= $1 AND at < $2
               AND (at, id) < ($3::timestamptz, $4)
               ORDER BY at DESC, id DESC LIMIT $5`,
              [query.start, query.end, before.timestamp, before.id, BATCH],
            )
          : await storeRows<{ value: string }>(
              pool,
              `SELECT value FROM xb_audit_log WHERE at >= $1 AND at < $2
               ORDER BY at DESC, id DESC LIMIT $3`,
              [query.start, query.end, BATCH],
            );
        return rows.map((row) => JSON.parse(row.value) as AuditLogEntry);
      });
    },
    async prune(before) {
      try {
        const result = await pool.query('DELETE FROM xb_audit_log WHERE at < $1', [before]);
        return result.rowCount ?? 0;
      } catch (error) {
        throw storeFailure(error);
      }
    },
  };
}
