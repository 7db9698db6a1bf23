import type { Page, TelemetryEnvelope } from '@x/types';
import type { BrowserModel } from '../browsers/browser-model.js';
import { releasedOnAbort, takeStreamPlace } from '../browsers/stream-places.js';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import type { TelemetryPageQuery } from './telemetry-log.js';

/** What a telemetry stream asks for, checked. */
export interface TelemetryStreamRequest {
  readonly replay?: string | undefined;
  readonly last_event_id?: number | undefined;
}

/**
 * The telemetry of the browsers: a page of a session's kept events, or a stream of them. A
 * stream counts among the browser's streams (BrowserLimits.logStreams, shared with log streams;
 * one more is 429) and ends when the browser does.
 */
export class TelemetryModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
  }

  /** A page of a session's events; an ended session's events are gone (an empty page). */
  async page(browserId: string, query: TelemetryPageQuery): Promise<Page<TelemetryEnvelope>> {
    const entry = this.#browsers.peek(browserId);
    if (entry) return entry.telemetry.page(query);
    await this.#browsers.get(browserId); // 404 for a session that never was.
    return { items: [], headers: { 'x-has-more': 'false' } };
  }

  /**
   * Opens a stream (its errors are thrown here, before the first event): after `last_event_id`
   * when given, from the oldest kept event with `replay=all`, otherwise only new events.
   */
  open(
    browserId: string,
    request: TelemetryStreamRequest,
  ): (signal: AbortSignal) => AsyncGenerator<TelemetryEnvelope, void> {
    const entry = this.#browsers.live(browserId);
    const release = takeStreamPlace(entry, browserId, this.#context.settings.limits.logStreams);
    const { telemetry, ending } = entry;
    const after =
      request.last_event_id ??
      (request.replay === 'all' ? telemetry.beforeOldest : telemetry.lastSeq);
    async function* events(signal: AbortSignal) {
      try {
        yield* telemetry.follow(after, AbortSignal.any([signal, ending.signal]));
      } finally {
        release();
      }
    }
    return releasedOnAbort(events, release);
  }
}
