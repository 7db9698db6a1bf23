import {
  array,
  type InferOutput,
  maxLength,
  nullable,
  number,
  object,
  optional,
  picklist,
  pipe,
  regex,
  string,
} from 'valibot';
import { described } from '../common/describe.js';
import { queryIntegerBetween } from '../common/numbers.js';
import { PAGE_LIMIT, QueryTextSchema } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { TimestampSchema } from '../common/scalars.js';

/** How a caller proved who it is: an operator's token, or an API key. */
export const AUTH_STRATEGIES = ['operator_token', 'api_key', 'session_jwt'] as const;

/**
 * One write to the service, as the audit log keeps it: when, by which key (its id and name,
 * never the key), in which project, what, how it ended, from where and how long it took.
 */
export const AuditLogEntrySchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the entry's id"),
  timestamp: /* @__PURE__ */ described(TimestampSchema, 'when the request arrived (UTC)'),
  key_id: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the id of the key that called'),
  key_name: /* @__PURE__ */ described(/* @__PURE__ */ string(), "that key's name"),
  auth_strategy: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(AUTH_STRATEGIES),
    'operator_token, api_key, or session_jwt (a session URL’s jwt, on the calls that take it)',
  ),
  project_id: /* @__PURE__ */ described(
    /* @__PURE__ */ nullable(/* @__PURE__ */ string()),
    'the project it acted in; null for an organization operation',
  ),
  method: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the HTTP method'),
  path: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the path, without its query'),
  route: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the operation it was'),
  status: /* @__PURE__ */ described(/* @__PURE__ */ number(), 'the status answered'),
  client_ip: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'where it came from'),
  user_agent: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'its User-Agent'),
  duration_ms: /* @__PURE__ */ described(/* @__PURE__ */ number(), 'how long it took, in ms'),
  count: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ number()),
    'for a refused call (403): how many refused calls of this key the entry stands for, this one and those since the last entry of the key (at most one a minute)',
  ),
});

/** One entry of the audit log. */
export type AuditLogEntry = InferOutput<typeof AuditLogEntrySchema>;

/** One page of a GET /audit-logs call. */
export const AuditLogListSchema = /* @__PURE__ */ array(AuditLogEntrySchema);

/** Longest `page_token`. */
const MAX_PAGE_TOKEN = 200;

/** An HTTP method a write may have. */
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Query of GET /audit-logs: entries from `start` (inclusive) to `end` (exclusive), newest
 * first; `method` and `search` narrow them; `page_token` goes on where a page stopped.
 */
export const ListAuditLogsQuerySchema = /* @__PURE__ */ requestObject({
  start: /* @__PURE__ */ described(TimestampSchema, 'earliest time, inclusive (ISO 8601)'),
  end: /* @__PURE__ */ described(TimestampSchema, 'latest time, exclusive (ISO 8601)'),
  method: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(WRITE_METHODS, 'must be POST, PUT, PATCH or DELETE'),
    ),
    'only entries of this method',
  ),
  search: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(QueryTextSchema),
    'only entries whose path, key id, key name, client IP or status contains this, any case',
  ),
  page_token: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ string(),
        /* @__PURE__ */ maxLength(MAX_PAGE_TOKEN),
        /* @__PURE__ */ regex(/^[A-Za-z0-9_-]*$/, 'must be a page token a page gave'),
      ),
    ),
    'where the last page stopped (its X-Next-Page-Token)',
  ),
  limit: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ queryIntegerBetween(1, PAGE_LIMIT.max),
      PAGE_LIMIT.default,
    ),
    `entries on the page, 1–${PAGE_LIMIT.max}, default ${PAGE_LIMIT.default}`,
  ),
});

/** A query of GET /audit-logs, validated. */
export type AuditLogQuery = InferOutput<typeof ListAuditLogsQuerySchema>;
