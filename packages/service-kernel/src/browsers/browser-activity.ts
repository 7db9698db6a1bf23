import type { BrowserInstance } from '../engines.js';
import { notFound } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import type { BrowserEnding } from './browser-ending.js';
import type { BrowserEntry } from './browser-entry.js';
import type { BrowserHooks } from './browser-hooks.js';
import type { LiveBrowsers } from './live-browsers.js';

/**
 * Activity on the live browsers, and the idle time-out it holds off: a call, a connected client
 * and a person in the live view count; a pool's warm browsers have no time-out.
 */
export class BrowserActivity<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #live: LiveBrowsers<I>;
  readonly #ending: BrowserEnding<I>;
  readonly #hooks: Pick<BrowserHooks<I>, 'viewersOf'>;

  constructor(
    context: ModelContext<I>,
    live: LiveBrowsers<I>,
    ending: BrowserEnding<I>,
    hooks: Pick<BrowserHooks<I>, 'viewersOf'>,
  ) {
    this.#context = context;
    this.#live = live;
    this.#ending = ending;
    this.#hooks = hooks;
  }

  /** A live browser, the call counting as activity; 404 when it does not run. */
  live(id: string): BrowserEntry<I> {
    const entry = this.#live.get(id);
    if (!entry) throw notFound('browser session', id);
    entry.lastActivityAt = this.#context.clock().getTime();
    return entry;
  }

  /** Counts activity on a live browser (its CDP connection is busy). */
  touch(id: string): void {
    const entry = this.#live.get(id);
    if (entry) entry.lastActivityAt = this.#context.clock().getTime();
  }

  /**
   * Counts a client connected to a live browser (DevTools or WebDriver BiDi) as activity for as
   * long as it stays connected, however quiet, as a person in its live view is: an agent that
   * thinks between two steps keeps its browser. The idle time-out counts again from when the last
   * one leaves. Gives the call that says it left (once; later calls do nothing).
   */
  connect(id: string): () => void {
    const entry = this.#live.get(id);
    if (!entry) return () => undefined;
    entry.clients++;
    entry.lastActivityAt = this.#context.clock().getTime();
    let isConnected = true;
    return () => {
      if (!isConnected) return;
      isConnected = false;
      entry.clients--;
      entry.lastActivityAt = this.#context.clock().getTime();
    };
  }

  /** Whether a pool keeps the browser warm: then it has no idle time-out. */
  setWarm(entry: BrowserEntry<I>, isWarm: boolean): void {
    entry.isWarm = isWarm;
    entry.lastActivityAt = this.#context.clock().getTime();
  }

  /** Deletes the browsers idle past their `timeout_seconds` (pools' warm ones have none). */
  sweep(): void {
    const now = this.#context.clock().getTime();
    for (const entry of this.#live.entries()) {
      if (entry.isWarm) continue;
      // A client connected, or someone watching its live view, is activity, however quiet.
      if (entry.clients > 0 || this.#hooks.viewersOf(entry.record.session_id) > 0)
        entry.lastActivityAt = now;
      if (now - entry.lastActivityAt > entry.record.timeout_seconds * 1000) {
        this.#context.log.info(
          { session: entry.record.session_id },
          'browser idle past its time-out',
        );
        void this.#ending.end(entry, { reason: 'timed_out' });
      }
    }
  }
}
