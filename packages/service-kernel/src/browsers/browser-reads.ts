import { type BrowserListQuery, type BrowserSession, type Page, pageOf } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { notFound } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import type { BrowserEntry } from './browser-entry.js';
import type { BrowserHooks } from './browser-hooks.js';
import { isSignInBrowser, uptimeMs } from './browser-records.js';
import { persistBrowser } from './browser-saving.js';
import type { LiveBrowsers } from './live-browsers.js';
import { renewSessionUrl } from './session-url.js';

/**
 * The session records as callers read them: a live browser's as it reads now, an ended one's as
 * the store keeps it; the service's own sign-in browsers left out while they run.
 */
export class BrowserReads<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #live: LiveBrowsers<I>;
  readonly #hooks: Pick<BrowserHooks<I>, 'viewersOf'>;

  constructor(
    context: ModelContext<I>,
    live: LiveBrowsers<I>,
    hooks: Pick<BrowserHooks<I>, 'viewersOf'>,
  ) {
    this.#context = context;
    this.#live = live;
    this.#hooks = hooks;
  }

  /**
   * The session record as it reads now, with its uptime. A URL with less than half its lifetime
   * left is signed again, so a URL read from a live session is valid for at least 12 h (the
   * renewed URL is stored without holding the answer: the live entry is what answers).
   */
  record(entry: BrowserEntry<I>): BrowserSession {
    if (renewSessionUrl(this.#context, entry)) persistBrowser(this.#context, entry);
    return {
      ...entry.record,
      viewers: this.#hooks.viewersOf(entry.record.session_id),
      usage: { uptime_ms: uptimeMs(entry.record, this.#context.clock()) },
    };
  }

  /**
   * A session record by id, a deleted one too (with `deleted_at`), or a running browser's by
   * name; 404 when there is none.
   */
  async get(idOrName: string): Promise<BrowserSession> {
    // A sign-in browser is nobody's while it runs; once ended, its record (and the replay the
    // connection's timeline names) may be read.
    const entry = this.#live.find(idOrName);
    if (entry && !isSignInBrowser(entry.record)) return this.record(entry);
    const record = entry ? undefined : await this.#context.engines.records.browsers.get(idOrName);
    if (!record) throw notFound('browser session', idOrName);
    return record;
  }

  /** The live browsers, oldest first; of one invocation when given. */
  list(invocationId?: string): BrowserSession[] {
    return this.#live
      .entries()
      .filter(
        (entry) =>
          (invocationId === undefined || entry.record.invocation_id === invocationId) &&
          !isSignInBrowser(entry.record),
      )
      .map((entry) => this.record(entry));
  }

  /**
   * One page of the sessions, oldest first: the running ones (`active`), the ended ones
   * (`deleted`, with `deleted_at`) or both (`all`).
   */
  async page({ offset, limit, status }: BrowserListQuery): Promise<Page<BrowserSession>> {
    const table = this.#context.engines.records.browsers;
    // One server alone knows its running browsers best; a cluster's are in the store.
    if (status === 'active' && !this.#context.settings.isShared)
      return pageOf(this.list(), offset, limit);
    const listed = (records: BrowserSession[]) =>
      records.filter((record) => !isSignInBrowser(record));
    if (status === 'deleted')
      return pageOf(listed(await table.list({ isOpen: false })), offset, limit);
    const page = pageOf(
      listed(await table.list(status === 'active' ? { isOpen: true } : undefined)),
      offset,
      limit,
    );
    const items = page.items.map((record) => {
      const entry = this.#live.get(record.session_id);
      return entry ? this.record(entry) : record;
    });
    return { items, headers: page.headers };
  }
}
