import {
  type AuthConnection,
  type AuthEvent,
  type AuthTimelineEvent,
  formatTimestamp,
  type Page,
  pageOf,
} from '@x/types';
import type { StoredAuthConnection } from '../records/record-store.js';
import type { AuthFlow, FlowFailure } from './auth-flow.js';

/** Most entries a connection's timeline keeps (the newest). */
const MAX_TIMELINE = 100;

/** `timeline` with `entry` first, replacing the entry of the same id (none: as it is). */
export function withEntry(
  timeline: readonly AuthTimelineEvent[],
  entry: AuthTimelineEvent | undefined,
): readonly AuthTimelineEvent[] {
  return entry
    ? [entry, ...timeline.filter((old) => old.id !== entry.id)].slice(0, MAX_TIMELINE)
    : timeline;
}

/** A flow's entry in the timeline, as the flow is at `now`. */
export function flowEntry(flow: AuthFlow, now: Date): AuthTimelineEvent {
  const state = flow.state();
  return {
    id: flow.id,
    type: flow.type === 'LOGIN' ? 'login' : 'reauth',
    status: state.flow_status,
    step: state.flow_step,
    timestamp: formatTimestamp(flow.startedAt),
    updated_at: formatTimestamp(now),
    ...(flow.browserId !== null && { browser_session_id: flow.browserId }),
    ...(flow.replayId !== undefined && { replay_id: flow.replayId }),
    ...(state.error_code !== null && { error_code: state.error_code }),
    ...(state.error_message !== null && { error_message: state.error_message }),
    ...(state.website_error !== null && { website_error: state.website_error }),
  };
}

/** A health check's entry in the timeline: the status it found, and the one before. */
export function checkEntry(check: {
  readonly id: string;
  readonly status: AuthConnection['status'];
  readonly previous: AuthConnection['status'];
  readonly started: Date;
  readonly now: Date;
  readonly browserId: string | undefined;
  readonly failure: FlowFailure | undefined;
}): AuthTimelineEvent {
  return {
    id: check.id,
    type: 'health_check',
    status: check.status,
    timestamp: formatTimestamp(check.started),
    updated_at: formatTimestamp(check.now),
    previous_status: check.previous,
    ...(check.browserId !== undefined && { browser_session_id: check.browserId }),
    ...(check.failure && { error_code: check.failure.code, error_message: check.failure.message }),
  };
}

/** A page of a connection's timeline, of one type of entry when asked. */
export function timelinePage(
  stored: StoredAuthConnection,
  query: { readonly offset: number; readonly limit: number; readonly type?: string | undefined },
): Page<AuthTimelineEvent> {
  const entries = stored.timeline.filter(
    (entry) => query.type === undefined || entry.type === query.type,
  );
  return pageOf(entries, query.offset, query.limit);
}

/**
 * A flow's states as they change, from the current one, until it ends. With no flow, the last
 * state the connection keeps, once (`answer` shows it as `get` does), when it has one.
 */
export async function* flowEvents(
  flow: AuthFlow | undefined,
  last: AuthConnection,
  answer: (record: AuthConnection) => AuthConnection,
  now: () => Date,
  signal: AbortSignal,
): AsyncGenerator<AuthEvent, void> {
  if (!flow) {
    if (last.flow_status && last.flow_step)
      yield {
        ...(answer(last) as Record<string, unknown>),
        event: 'managed_auth_state',
        timestamp: formatTimestamp(now()),
      } as unknown as AuthEvent;
    return;
  }
  let seen = -1;
  while (!signal.aborted) {
    // An ended flow is told once its record says so (`settle`), never before.
    if (flow.version !== seen && (!flow.isOver || flow.isSettled)) {
      seen = flow.version;
      yield flow.event(now());
      if (flow.isOver) return;
    }
    await new Promise<void>((resolve) => {
      if (signal.aborted || (flow.version !== seen && (!flow.isOver || flow.isSettled)))
        return resolve();
      const done = () => {
        signal.removeEventListener('abort', done);
        forget();
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      const forget = flow.onChange(done);
    });
  }
}
