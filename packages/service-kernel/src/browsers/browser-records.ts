import {
  type BrowserEndReason,
  type BrowserSession,
  formatTimestamp,
  resolveTelemetry,
  type Viewport,
} from '@x/types';
import type { RecordStore, RecordTable } from '../records/record-store.js';
import { ServiceError } from '../service-error.js';
import type { BrowserSpec } from './browser-spec.js';

/**
 * The tags the service marks its own sign-in browsers with (an auth connection's flow, its health
 * check): such a browser types a credential's values, so no caller lists it or reaches it, and
 * no caller may give these tags to a browser of its own.
 */
export const SIGN_IN_TAGS = ['xb-auth-connection', 'xb-auth-check'] as const;

/** Whether a session is one of the service's own sign-in browsers. */
export function isSignInBrowser(record: Pick<BrowserSession, 'tags'>): boolean {
  return SIGN_IN_TAGS.some((tag) => record.tags?.[tag] !== undefined);
}

/** 400 when a caller's tags hold one the service keeps for its sign-in browsers. */
export function assertCallerTags(tags: Readonly<Record<string, string>> | undefined): void {
  const taken = SIGN_IN_TAGS.find((tag) => tags?.[tag] !== undefined);
  if (taken !== undefined)
    throw new ServiceError(
      'bad_request',
      `The tag "${taken}" marks the service's own sign-in browsers: use another key.`,
    );
}

/** The record of a session just started from `spec`. */
export function sessionRecord(
  id: string,
  spec: BrowserSpec,
  viewport: Viewport,
  urls: {
    readonly cdp: string;
    readonly webdriver: string;
    readonly live: string;
    readonly base: string;
  },
  createdAt: Date,
): BrowserSession {
  const record: BrowserSession = {
    session_id: id,
    created_at: formatTimestamp(createdAt),
    cdp_ws_url: urls.cdp,
    webdriver_ws_url: urls.webdriver,
    browser_live_view_url: urls.live,
    base_url: urls.base,
    headless: spec.headless,
    stealth: spec.stealth,
    gpu: false,
    kiosk_mode: spec.kiosk_mode,
    timeout_seconds: spec.timeout_seconds,
    viewport,
  };
  if (spec.name !== undefined) record.name = spec.name;
  if (spec.tags !== undefined && Object.keys(spec.tags).length > 0) record.tags = { ...spec.tags };
  if (spec.invocation_id) record.invocation_id = spec.invocation_id;
  const telemetry = resolveTelemetry(spec.telemetry);
  if (telemetry) record.telemetry = telemetry;
  if (spec.proxy_id) record.proxy_id = spec.proxy_id;
  if (spec.start_url !== undefined) record.start_url = spec.start_url;
  if (spec.chrome_policy !== undefined) record.chrome_policy = { ...spec.chrome_policy };
  if (spec.pool) {
    record.pool =
      spec.pool.name === undefined
        ? { id: spec.pool.id }
        : { id: spec.pool.id, name: spec.pool.name };
  }
  return record;
}

/** How long a session has run at `now`, in milliseconds. */
export const uptimeMs = (record: BrowserSession, now: Date): number =>
  Math.max(0, now.getTime() - Date.parse(record.created_at));

/**
 * The record of a session that ended at `now` for `reason`: `deleted_at`, `end_reason`, and its
 * uptime at the end.
 */
export function endedRecord(
  record: BrowserSession,
  now: Date,
  reason: BrowserEndReason,
): BrowserSession {
  return {
    ...record,
    deleted_at: formatTimestamp(now),
    end_reason: reason,
    usage: { uptime_ms: uptimeMs(record, now) },
  };
}

/** Keeps a session record, filed under its invocation, open while it runs. */
export function saveSessionRecord(
  table: RecordTable<BrowserSession>,
  record: BrowserSession,
): Promise<void> {
  return table.put(record.session_id, record, {
    parent: record.invocation_id,
    isOpen: record.deleted_at === undefined,
  });
}

/**
 * Marks the records of open sessions that no browser runs any more as ended at `now`, all or
 * none: those an earlier run of this server left open (`server_restarted`), or those of a node
 * of the cluster that was lost (`node_lost`). `isOf` picks the sessions by id (every one by
 * default). Gives how many there were.
 */
export function closeOpenRecords(
  store: RecordStore,
  now: Date,
  reason: 'server_restarted' | 'node_lost',
  isOf: (sessionId: string) => boolean = () => true,
): Promise<number> {
  return store.transaction(async ({ browsers }) => {
    const open = (await browsers.list({ isOpen: true })).filter((record) =>
      isOf(record.session_id),
    );
    // Not `endedRecord`: when it stopped running is not known, so its uptime is not either.
    const deletedAt = formatTimestamp(now);
    for (const record of open)
      await saveSessionRecord(browsers, { ...record, deleted_at: deletedAt, end_reason: reason });
    return open.length;
  });
}
