import type { BrowserEndReason } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { endWatch } from '../fs-watch/watch-entry.js';
import { notFound } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { signalProcess } from '../processes/process-entry.js';
import type { ProfileModel } from '../profiles/profile-model.js';
import { finishRecording } from '../replays/recording.js';
import type { BrowserEntry } from './browser-entry.js';
import type { BrowserHooks } from './browser-hooks.js';
import { endedRecord } from './browser-records.js';
import { trySaveBrowser } from './browser-saving.js';
import type { LiveBrowsers } from './live-browsers.js';

/** Why a browser ends (kept in its record as `end_reason`). */
export interface HowEnded {
  readonly reason: BrowserEndReason;
}

/**
 * Ending browsers, however they end, and all that goes with them: their processes, watches and
 * recordings, their profile's save, their record, their instance.
 */
export class BrowserEnding<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #profiles: ProfileModel<I>;
  readonly #live: LiveBrowsers<I>;
  readonly #hooks: Pick<BrowserHooks<I>, 'onEnding' | 'onEnded'>;
  /** Browsers ending (saving what they keep) and their instances' closes: shutdown waits for them. */
  readonly #closings = new Set<Promise<void>>();

  constructor(
    context: ModelContext<I>,
    profiles: ProfileModel<I>,
    live: LiveBrowsers<I>,
    hooks: Pick<BrowserHooks<I>, 'onEnding' | 'onEnded'>,
  ) {
    this.#context = context;
    this.#profiles = profiles;
    this.#live = live;
    this.#hooks = hooks;
  }

  /**
   * Deletes a running browser, by id or name; 404 when it does not run. Resolves once nothing of
   * it runs.
   */
  delete(idOrName: string): Promise<void> {
    const entry = this.#live.find(idOrName);
    if (!entry) throw notFound('browser session', idOrName);
    return this.end(entry, { reason: 'deleted' });
  }

  /**
   * Ends a browser, however it ends (deleted, idle, released, its invocation ended, crashed):
   * the record keeps `deleted_at` at once; its processes are killed, its watches end, its
   * recordings are finalized (the videos are kept), its state is saved into its profile when it
   * was created to save (not after a crash: the profile keeps its last good version), then its
   * instance closes and its pool refills.
   */
  async end(entry: BrowserEntry<I>, how: HowEnded): Promise<void> {
    await (await this.#stop(entry, how))?.closed;
  }

  /**
   * Ends a browser as `end` does, but answers once its session is over (the record ended, its
   * processes killed, its recordings and profile saved, its URLs refused) while its instance
   * closes: a released pool browser's clean-up does not hold the release. Until it has closed,
   * it still counts among the node's browsers.
   */
  async endSoon(entry: BrowserEntry<I>, how: HowEnded): Promise<void> {
    await this.#stop(entry, how);
  }

  /** Ends the session; what it gives resolves once the instance has closed, too. */
  async #stop(
    entry: BrowserEntry<I>,
    how: HowEnded,
  ): Promise<{ readonly closed: Promise<void> } | undefined> {
    const crashed = how.reason === 'crashed';
    const id = entry.record.session_id;
    if (this.#live.get(id) !== entry) return undefined;
    this.#live.delete(id);
    this.#live.closeBegins();
    // Awaited by a shutdown from here, not only once its instance closes: a browser still
    // saving its profile or its recordings when the server stops is closed before it goes, and
    // leaves nothing on the host (its namespace, its disk).
    let isOver = () => undefined as void;
    const over = new Promise<void>((resolve) => {
      isOver = resolve;
    });
    this.#closings.add(over);
    void over.then(() => this.#closings.delete(over));
    const closeInstance = () => {
      const closed = this.#closeInstance(entry, saving);
      void closed.then(isOver, isOver);
      return closed;
    };
    // Its name is free for a new browser from now: names are unique among running browsers.
    this.#live.freeName(entry.record.name, id);
    this.#hooks.onEnding(id);
    entry.log.write(
      'service',
      crashed ? `browser ${id} exited by itself` : `browser ${id} ends (${how.reason})`,
    );
    entry.ending.abort();
    entry.record = endedRecord(entry.record, this.#context.clock(), how.reason);
    // A store that cannot take the record (a full disk, a database away) does not keep the
    // browser running: it ends all the same while the record is stored, and the record is
    // stored again once its instance has freed its room.
    const saving = trySaveBrowser(this.#context, entry);
    for (const process of entry.processes.values()) signalProcess(process, 'KILL');
    // Their records and output go with the browser: nothing can ask for them any more.
    entry.processes.clear();
    for (const watch of entry.watches.values()) endWatch(watch);
    try {
      await Promise.all(
        [...entry.recordings.values()].map((recording) =>
          finishRecording(this.#context, entry.recordings, recording),
        ),
      );
      const { profile } = entry.record;
      if (profile?.save_changes && profile.id !== undefined) {
        try {
          if (!crashed) await this.#saveProfile(entry, profile.id);
        } finally {
          this.#profiles.release(profile.id, id);
        }
      }
    } catch (error) {
      closeInstance();
      throw error;
    }
    return { closed: closeInstance() };
  }

  /** Closes an ended browser's instance, stores its record as ended, and tells who listens. */
  #closeInstance(entry: BrowserEntry<I>, saving: Promise<boolean>): Promise<void> {
    const id = entry.record.session_id;
    const closed = (async () => {
      try {
        await entry.instance.close();
      } catch (error) {
        // The session is over whatever the engine says; what it could not free is its to report.
        this.#context.log.error({ err: error, session: id }, 'a browser failed to close cleanly');
      } finally {
        this.#live.closeEnds();
      }
      if (!(await saving) && !(await trySaveBrowser(this.#context, entry))) {
        this.#context.log.error(
          { session: id },
          'the ended browser is not marked deleted in the store: the next start marks it',
        );
      }
      this.#context.log.info({ session: id }, 'browser deleted');
      try {
        this.#hooks.onEnded(entry.record);
      } catch (error) {
        // A close nobody awaits (a release answered already) has no caller to throw to.
        this.#context.log.error({ err: error, session: id }, 'an ended browser was not let go');
      }
    })();
    this.#closings.add(closed);
    const forget = () => this.#closings.delete(closed);
    void closed.then(forget, forget);
    return closed;
  }

  /** Saves a browser's state into its profile; a failure is logged, the last version kept. */
  async #saveProfile(entry: BrowserEntry<I>, profileId: string): Promise<void> {
    const session = entry.record.session_id;
    try {
      await entry.instance.saveProfile(profileId);
      await this.#profiles.markSaved(profileId);
      this.#context.log.info({ session, profile: profileId }, 'profile saved');
    } catch (error) {
      this.#context.log.error(
        { err: error, session, profile: profileId },
        'profile not saved: it keeps its last version',
      );
    }
  }

  /**
   * Ends every warm browser here (a pool's, idle): a drained node hands none out, and their
   * pools start others where browsers may start.
   */
  endWarm(): void {
    for (const entry of this.#live.entries()) {
      if (!entry.isWarm) continue;
      this.endSoon(entry, { reason: 'pool_changed' }).catch((error: unknown) => {
        this.#context.log.warn(
          { err: error, session: entry.record.session_id },
          'a warm browser did not end well',
        );
      });
    }
  }

  /** Ends every running browser for `reason`; gives how many there were. */
  async endAll(reason: BrowserEndReason): Promise<number> {
    const entries = this.#live.entries();
    await Promise.all(entries.map((entry) => this.end(entry, { reason })));
    return entries.length;
  }

  /** Resolves once every browser that ended has closed (its end saved, its instance closed). */
  settled(): Promise<unknown> {
    return Promise.allSettled([...this.#closings]);
  }
}
