import { type AuditLogEntry, type AuditLogQuery, formatTimestamp, HEADERS } from '@x/types';
import type { Caller } from '../pipeline/auth.js';
import type { AuditedCall } from '../pipeline/handle-request.js';
import { ServiceError } from '../service-error.js';
import type { ApiKeys } from './api-keys.js';
import { DAY_MS, type OrgContext } from './org-context.js';
import { RefusalAudit } from './refusal-audit.js';

/**
 * The organization's audit log: every write of an authenticated caller, kept; refused calls
 * kept once a minute per key, counted; read newest first, a project key its project's only.
 */
export class AuditLog {
  readonly #context: OrgContext;
  readonly #keys: ApiKeys;
  /** Refused calls, audited at most once per key and minute, with their count. */
  readonly #refusals: RefusalAudit<AuditLogEntry>;

  constructor(context: OrgContext, keys: ApiKeys) {
    this.#context = context;
    this.#keys = keys;
    this.#refusals = new RefusalAudit(
      (entry, count) => context.audit.append({ ...entry, count }),
      () => context.clock().getTime(),
      (error) => context.log.error({ err: error }, 'a refused call could not be audited'),
    );
  }

  /** Keeps one write in the audit log. */
  async record(call: AuditedCall): Promise<void> {
    const entry: AuditLogEntry = {
      id: this.#context.nextId('aud'),
      timestamp: formatTimestamp(call.at),
      key_id: call.caller.keyId,
      key_name: call.caller.keyName,
      auth_strategy: call.caller.strategy,
      project_id: call.project ?? null,
      method: call.method,
      path: call.path,
      route: call.operation,
      status: call.status,
      client_ip: call.clientIp,
      user_agent: call.userAgent.slice(0, 512),
      duration_ms: call.durationMs,
    };
    // A refused call changed nothing: its key's refusals are kept once a minute, counted.
    if (call.status === 403) await this.#refusals.refused(call.caller.keyId, entry);
    else await this.#context.audit.append(entry);
  }

  /**
   * One page of the audit log, newest first; its answer's `X-Next-Page-Token` goes on from its
   * last entry. A project key reads its project's entries only.
   */
  async page(
    caller: Caller,
    query: AuditLogQuery,
  ): Promise<{ items: AuditLogEntry[]; headers: Record<string, string> }> {
    const after = query.page_token === undefined ? undefined : parsePageToken(query.page_token);
    const items = await this.#context.audit.page({
      start: new Date(query.start),
      end: new Date(query.end),
      method: query.method,
      search: query.search,
      project: caller.project,
      after,
      limit: query.limit + 1,
    });
    const hasMore = items.length > query.limit;
    const page = items.slice(0, query.limit);
    const headers: Record<string, string> = { 'x-has-more': String(hasMore) };
    const last = page.at(-1);
    if (hasMore && last) headers[HEADERS.nextPageToken] = pageToken(last);
    return { items: page, headers };
  }

  /** Forgets audit entries older than `days`, and deleted keys as old. */
  async prune(days: number): Promise<number> {
    const before = new Date(this.#context.clock().getTime() - days * DAY_MS);
    const gone = await this.#context.audit.prune(before);
    await this.#keys.pruneDeleted(before);
    if (gone > 0) this.#context.log.info({ count: gone }, 'audit log entries pruned');
    return gone;
  }

  /** Keeps the refusals counted so far (at shutdown). */
  flush(): Promise<void> {
    return this.#refusals.flush();
  }
}

/** A page token: the last entry's time and id, opaque to callers. */
function pageToken(entry: Pick<AuditLogEntry, 'timestamp' | 'id'>): string {
  return Buffer.from(`${entry.timestamp}|${entry.id}`).toString('base64url');
}

function parsePageToken(token: string): { timestamp: string; id: string } {
  const [timestamp, id] = Buffer.from(token, 'base64url').toString().split('|');
  if (timestamp === undefined || id === undefined || Number.isNaN(Date.parse(timestamp))) {
    throw new ServiceError('bad_request', 'page_token is not one a page of this list gave.', {
      details: [{ code: 'invalid_input', message: 'query.page_token: not a token a page gave' }],
    });
  }
  return { timestamp, id };
}
