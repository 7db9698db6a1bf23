import type { AuditLogEntry } from '@x/types';
import { auditMatches, isNewerEntry } from './audit-entries.js';
import type { AuditQuery, AuditStore } from './record-store.js';

/** The audit log in memory, at most `max` entries (the oldest go first): the fake's. */
export function createMemoryAuditStore(max = 100_000): AuditStore & { entries(): AuditLogEntry[] } {
  let entries: AuditLogEntry[] = [];
  return {
    async append(entry) {
      entries.push(entry);
      if (entries.length > max) entries = entries.slice(entries.length - max);
    },
    async page(query: AuditQuery) {
      return entries
        .filter((entry) => auditMatches(entry, query))
        .sort((a, b) => (isNewerEntry(a, b) ? -1 : 1))
        .slice(0, query.limit);
    },
    async prune(before) {
      const kept = entries.filter((entry) => Date.parse(entry.timestamp) >= before.getTime());
      const gone = entries.length - kept.length;
      entries = kept;
      return gone;
    },
    entries: () => [...entries],
  };
}
