import { type AuthConnection, type AuthTimelineEvent, formatTimestamp } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { notFound } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import type { StoredAuthConnection } from '../records/record-store.js';
import { withEntry } from './auth-timeline.js';

/** The project's stored auth connections, each with its timeline. */
export class AuthConnectionStore<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;

  constructor(context: ModelContext<I>) {
    this.#context = context;
  }

  get #table() {
    return this.#context.engines.records.authConnections;
  }

  list(): Promise<StoredAuthConnection[]> {
    return this.#table.list();
  }

  get(id: string): Promise<StoredAuthConnection | undefined> {
    return this.#table.get(id);
  }

  put(id: string, stored: StoredAuthConnection): Promise<void> {
    return this.#table.put(id, stored);
  }

  delete(id: string): Promise<void> {
    return this.#table.delete(id);
  }

  /** The stored connection; 404 when there is none. */
  async find(id: string): Promise<StoredAuthConnection> {
    const stored = await this.#table.get(id);
    if (!stored) throw notFound('auth connection', id);
    return stored;
  }

  /**
   * Changes the stored connection (gone: nothing) and puts `entry` first in its timeline,
   * replacing the entry of the same id.
   */
  async write(
    id: string,
    change: (record: AuthConnection) => AuthConnection,
    entry?: AuthTimelineEvent,
  ): Promise<AuthConnection | undefined> {
    const stored = await this.#table.get(id);
    if (!stored) return undefined;
    const record = { ...change(stored.record), updated_at: formatTimestamp(this.#context.clock()) };
    const timeline = withEntry(stored.timeline, entry);
    await this.#table.put(id, { record, timeline });
    return record;
  }
}
