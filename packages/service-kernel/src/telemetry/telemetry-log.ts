import {
  durationMs,
  MAX_TELEMETRY_EVENT_BYTES,
  type Page,
  TELEMETRY_RETAINED_EVENTS,
  type TelemetryCategory,
  type TelemetryEnvelope,
  type TelemetryEvent,
  type TelemetryEventCategory,
} from '@x/types';
import { wakeOrAbort } from '../event-stream.js';

/** An event as its producer reports it: the log stamps its time (unless given) and sequence. */
export interface TelemetryEventInput {
  readonly category: TelemetryEventCategory;
  readonly type: string;
  readonly source: TelemetryEvent['source'];
  readonly data?: Record<string, unknown> | undefined;
  /** When it happened, epoch ms; now by the log's clock when absent. */
  readonly at?: number | undefined;
}

/** The categories whose events come from the pages themselves: they bring `monitor` along. */
const PAGE_CATEGORIES: readonly TelemetryCategory[] = ['console', 'network', 'page', 'interaction'];

/** What a page of events asks for, checked. */
export interface TelemetryPageQuery {
  readonly offset: number;
  readonly limit: number;
  readonly category?: readonly TelemetryEventCategory[] | undefined;
  readonly order?: 'asc' | 'desc' | undefined;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
}

const encoder = new TextEncoder();
const byteLength = (value: unknown) => encoder.encode(JSON.stringify(value)).byteLength;

/** `value` with every text cut at `chars`, lists at 32 entries, objects at 64 keys, 6 deep. */
function cut(value: unknown, chars: number, depth = 0): unknown {
  if (typeof value === 'string') return value.length > chars ? value.slice(0, chars) : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 6) return undefined;
  if (Array.isArray(value)) return value.slice(0, 32).map((item) => cut(item, chars, depth + 1));
  const entries = Object.entries(value).slice(0, 64);
  return Object.fromEntries(entries.map(([key, item]) => [key, cut(item, chars, depth + 1)]));
}

/**
 * An event's data within MAX_TELEMETRY_EVENT_BYTES: as it is when it fits, else with its texts
 * cut shorter and shorter (`truncated`), else without data at all.
 */
export function boundedData(data: Record<string, unknown> | undefined): {
  data?: Record<string, unknown>;
  truncated?: true;
} {
  if (data === undefined) return {};
  if (byteLength(data) <= MAX_TELEMETRY_EVENT_BYTES) return { data };
  for (const chars of [2048, 512, 128]) {
    const shorter = cut(data, chars) as Record<string, unknown>;
    if (byteLength(shorter) <= MAX_TELEMETRY_EVENT_BYTES) return { data: shorter, truncated: true };
  }
  return { truncated: true };
}

/** A time bound of a query (RFC 3339, or a duration meaning that long before `now`), epoch µs. */
function boundUs(text: string, now: number): number {
  const ago = durationMs(text);
  return (ago === undefined ? Date.parse(text) : now - ago) * 1000;
}

/**
 * A session's telemetry: the events of the categories it captures, numbered from 1, the newest
 * TELEMETRY_RETAINED_EVENTS kept (older ones are dropped, a gap in `seq`). Readers page through
 * it or follow it; a follower that falls behind the oldest kept event goes on from there.
 */
export class TelemetryLog {
  readonly #categories: ReadonlySet<TelemetryEventCategory>;
  readonly #clock: () => Date;
  /** Oldest first; at most TELEMETRY_RETAINED_EVENTS. */
  readonly #events: TelemetryEnvelope[] = [];
  #seq = 0;
  readonly #listeners = new Set<() => void>();

  constructor(categories: readonly TelemetryCategory[], clock: () => Date) {
    const captured = new Set<TelemetryEventCategory>(categories);
    if (PAGE_CATEGORIES.some((category) => captured.has(category))) captured.add('monitor');
    this.#categories = captured;
    this.#clock = clock;
  }

  /** Whether events of this category are kept. */
  captures(category: TelemetryEventCategory): boolean {
    return this.#categories.has(category);
  }

  /** Sequence number of the newest event; 0 before the first. */
  get lastSeq(): number {
    return this.#seq;
  }

  /** Keeps an event of a captured category (others are dropped), its data bounded. */
  record(input: TelemetryEventInput): void {
    if (!this.captures(input.category)) return;
    const at = input.at ?? this.#clock().getTime();
    const event: TelemetryEvent = {
      category: input.category,
      type: input.type,
      ts: Math.round(at * 1000),
      source: input.source,
      ...boundedData(input.data),
    };
    this.#seq++;
    this.#events.push({ seq: this.#seq, event });
    if (this.#events.length > TELEMETRY_RETAINED_EVENTS) this.#events.shift();
    for (const listener of this.#listeners) listener();
  }

  /**
   * A page of the kept events: filtered first (category, time), then cut at `limit`. The offset
   * is a sequence number (0: none): ascending, the page starts at it; descending, it ends before
   * it. `X-Next-Offset` is where the next page starts, so pages go on as old events are dropped.
   */
  page(query: TelemetryPageQuery): Page<TelemetryEnvelope> {
    const now = this.#clock().getTime();
    const since = query.since === undefined ? undefined : boundUs(query.since, now);
    const until = query.until === undefined ? undefined : boundUs(query.until, now);
    const categories = query.category && new Set(query.category);
    const descending = query.order === 'desc';
    const matching = this.#events.filter(
      ({ seq, event }) =>
        (categories === undefined || categories.has(event.category)) &&
        (since === undefined || event.ts >= since) &&
        (until === undefined || event.ts < until) &&
        (query.offset === 0 || (descending ? seq < query.offset : seq >= query.offset)),
    );
    if (descending) matching.reverse();
    const items = matching.slice(0, query.limit);
    const hasMore = matching.length > items.length;
    const headers: Record<string, string> = { 'x-has-more': String(hasMore) };
    const last = items.at(-1);
    if (hasMore && last) headers['x-next-offset'] = String(descending ? last.seq : last.seq + 1);
    return { items, headers };
  }

  /**
   * The events after `afterSeq`, then each new one as it comes, until `signal` aborts. A reader
   * slower than the events skips what was dropped meanwhile (a gap in `seq`).
   */
  async *follow(afterSeq: number, signal: AbortSignal): AsyncGenerator<TelemetryEnvelope, void> {
    let cursor = afterSeq;
    let wake: (() => void) | undefined;
    const listener = () => wake?.();
    this.#listeners.add(listener);
    try {
      while (!signal.aborted) {
        // Kept events are numbered without gaps: the next one is found by its place.
        const oldest = this.#events[0]?.seq ?? cursor + 1;
        const next = this.#events[Math.max(0, cursor + 1 - oldest)];
        if (next) {
          cursor = next.seq;
          yield next;
          continue;
        }
        await wakeOrAbort((resolve) => {
          wake = resolve;
        }, signal);
        wake = undefined;
      }
    } finally {
      this.#listeners.delete(listener);
    }
  }

  /** Sequence number just before the oldest kept event: where a replay of everything starts. */
  get beforeOldest(): number {
    return (this.#events[0]?.seq ?? this.#seq + 1) - 1;
  }
}
