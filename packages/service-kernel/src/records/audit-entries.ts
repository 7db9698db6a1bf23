import type { AuditLogEntry } from '@x/types';
import type { AuditQuery } from './record-store.js';

/** Whether `a` comes before `b` in the log's order: newest first, then by id, descending. */
export function isNewerEntry(
  a: Pick<AuditLogEntry, 'timestamp' | 'id'>,
  b: Pick<AuditLogEntry, 'timestamp' | 'id'>,
): boolean {
  if (a.timestamp !== b.timestamp) return a.timestamp > b.timestamp;
  return a.id > b.id;
}

/**
 * Whether an entry is on a page of `query`: in its time range, of its method, with its search
 * text in the path, key id or name, client IP or status, in its project, after its cursor.
 * (Timestamps are all written the same way, UTC with milliseconds, so they compare as text.)
 */
export function auditMatches(entry: AuditLogEntry, query: AuditQuery): boolean {
  const time = Date.parse(entry.timestamp);
  if (time < query.start.getTime() || time >= query.end.getTime()) return false;
  if (query.method !== undefined && entry.method !== query.method) return false;
  if (query.project !== undefined && entry.project_id !== query.project) return false;
  if (query.after !== undefined && !isNewerEntry(query.after, entry)) return false;
  if (query.search === undefined) return true;
  const needle = query.search.toLowerCase();
  return [entry.path, entry.key_id, entry.key_name, entry.client_ip, String(entry.status)].some(
    (field) => field.toLowerCase().includes(needle),
  );
}
