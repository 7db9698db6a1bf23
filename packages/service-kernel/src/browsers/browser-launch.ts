import {
  type BrowserSession,
  formatNetworkEntry,
  type Profile,
  resolveTelemetry,
  telemetryCategories,
  type Viewport,
} from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { isOutOfResources, isStorageFull, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { ServiceError } from '../service-error.js';
import type { BrowserChecks, Eventually, Resolved, SpecModels } from './browser-check.js';
import type { BrowserEnding } from './browser-ending.js';
import { type BrowserEntry, newBrowserEntry } from './browser-entry.js';
import type { BrowserHooks } from './browser-hooks.js';
import { sessionRecord } from './browser-records.js';
import { persistBrowser, saveBrowser } from './browser-saving.js';
import { type BrowserSpec, DEFAULT_VIEWPORT } from './browser-spec.js';
import type { LiveBrowsers } from './live-browsers.js';
import { checkBrowserNetworks } from './network-allow.js';
import { sessionUrls } from './session-url.js';

/**
 * Starting browsers: capacity and the project's cap, the engine's launch, the new browser's
 * record and URLs, and what it names marked used; none starts once the node drains or stops.
 */
export class BrowserLauncher<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #models: SpecModels<I>;
  readonly #live: LiveBrowsers<I>;
  readonly #checks: BrowserChecks<I>;
  readonly #ending: BrowserEnding<I>;
  readonly #hooks: Pick<BrowserHooks<I>, 'reserved'>;
  /** Browsers being started: shutdown waits for them. */
  readonly #startups = new Set<Promise<unknown>>();
  #isClosed = false;
  #isDraining = false;

  constructor(
    context: ModelContext<I>,
    models: SpecModels<I>,
    live: LiveBrowsers<I>,
    checks: BrowserChecks<I>,
    ending: BrowserEnding<I>,
    hooks: Pick<BrowserHooks<I>, 'reserved'>,
  ) {
    this.#context = context;
    this.#models = models;
    this.#live = live;
    this.#checks = checks;
    this.#ending = ending;
    this.#hooks = hooks;
  }

  /**
   * Starts a browser; 429 with Retry-After at capacity, 503 while shutting down. At once when
   * nothing of the spec is in the store and the engine launches at once (the fake).
   */
  create(spec: BrowserSpec, origin: string): Eventually<BrowserEntry<I>> {
    const resolved = this.#checks.check(spec);
    if (resolved instanceof Promise)
      return resolved.then((found) => this.#start(spec, found, origin));
    return this.#start(spec, resolved, origin);
  }

  #start(spec: BrowserSpec, resolved: Resolved, origin: string): Eventually<BrowserEntry<I>> {
    if (this.#isClosed) throw refusals.shuttingDown();
    if (this.#isDraining) throw refusals.draining();
    const { maxBrowsers } = this.#context.settings;
    const { quota, project } = this.#context;
    if (quota.nodeBrowsers() >= maxBrowsers) throw refusals.atCapacity(maxBrowsers);
    const cap = spec.pool ? undefined : quota.sessions();
    if (
      cap !== undefined &&
      this.#live.onDemandCount() + this.#hooks.reserved() + (resolved.elsewhere ?? 0) >= cap
    ) {
      throw refusals.projectLimit(
        project,
        'max_concurrent_sessions',
        cap,
        "its browsers and its pools' sizes together reach it",
      );
    }
    const id = this.#context.nextId('br');
    // Held from now, so a second browser of that name is refused while this one starts.
    if (spec.name !== undefined) this.#live.claimName(spec.name, id);
    const { profile } = resolved;
    // Held from now, so a second writer is refused while this one starts.
    if (profile?.save) this.#models.profiles.hold(profile.record, id);
    const release = () => {
      if (profile?.save) this.#models.profiles.release(profile.record.id, id);
      this.#live.freeName(spec.name, id);
    };
    const viewport = spec.viewport ?? { ...DEFAULT_VIEWPORT };
    let launched: I | Promise<I>;
    try {
      launched = this.#context.engines.browsers.launch({
        id,
        headless: spec.headless,
        stealth: spec.stealth,
        kioskMode: spec.kiosk_mode,
        viewport,
        extensions: resolved.extensions.map((extension) => extension.key),
        profileId: profile?.record.id,
        proxy: resolved.proxy,
        allowNetworks: resolved.allowNetworks === 'unlimited' ? [] : resolved.allowNetworks,
        telemetry: telemetryCategories(resolveTelemetry(spec.telemetry)),
        isForPool: spec.pool !== undefined,
        ...(spec.start_url === undefined ? {} : { startUrl: spec.start_url }),
        ...(spec.chrome_policy === undefined ? {} : { chromePolicy: spec.chrome_policy }),
      });
    } catch (error) {
      release();
      throw this.#launchFailed(error);
    }
    if (!(launched instanceof Promise)) {
      // Started at once (an in-memory engine): what it names is marked used and its record
      // stored before it is answered, at once when there is nothing to mark (the memory store
      // has written the record by the time this returns).
      if (resolved.extensions.length > 0 || profile)
        return this.#adoptStarted(id, spec, resolved, viewport, origin, launched).catch(
          (error: unknown) => {
            release();
            throw error;
          },
        );
      const entry = this.#adopt(id, spec, resolved, viewport, origin, launched);
      persistBrowser(this.#context, entry);
      return entry;
    }
    const onDemand = spec.pool ? 0 : 1;
    this.#live.startBegins(onDemand);
    const starting = launched.then(
      (instance) => {
        this.#live.startEnds(onDemand);
        return this.#adoptStarted(id, spec, resolved, viewport, origin, instance).catch(
          (error: unknown) => {
            release();
            throw error;
          },
        );
      },
      (error: unknown) => {
        this.#live.startEnds(onDemand);
        release();
        throw this.#launchFailed(error);
      },
    );
    this.#startups.add(starting);
    const forget = () => this.#startups.delete(starting);
    starting.then(forget, forget);
    return starting;
  }

  /** A browser that finished starting is adopted, unless shutdown began meanwhile. */
  async #adoptStarted(
    id: string,
    spec: BrowserSpec,
    resolved: Resolved,
    viewport: Viewport,
    origin: string,
    instance: I,
  ): Promise<BrowserEntry<I>> {
    if (this.#isClosed) {
      await instance.close();
      throw refusals.shuttingDown();
    }
    let entry: BrowserEntry<I> | undefined;
    try {
      await this.#models.extensions.markUsed(resolved.extensions);
      const loaded =
        resolved.profile && (await this.#models.profiles.markUsed(resolved.profile.record));
      entry = this.#adopt(id, spec, resolved, viewport, origin, instance, loaded);
      await saveBrowser(this.#context, entry);
      // Its invocation may have ended while it started (its code returned, a cancel): the end
      // ended the browsers it found, not one still starting, so this one ends itself (409).
      if (spec.invocation_id) await this.#models.invocations.running(spec.invocation_id);
      return entry;
    } catch (error) {
      // Not stored, not kept: a browser nobody can find again is closed at once.
      if (entry) await this.#ending.end(entry, { reason: 'invocation_ended' });
      else
        await instance
          .close()
          .catch((closeError: unknown) =>
            this.#context.log.error(
              { err: closeError, session: id },
              'a browser failed to close cleanly',
            ),
          );
      throw error;
    }
  }

  #launchFailed(error: unknown): ServiceError {
    // What the engine refused in words (no sandbox, …) goes to the caller as it is.
    if (error instanceof ServiceError) return error;
    this.#context.log.error({ err: error }, 'browser failed to start');
    if (isStorageFull(error)) return refusals.insufficientStorage('start a browser');
    if (isOutOfResources(error)) return refusals.outOfResources('start a browser');
    return refusals.browserFailedToStart();
  }

  #adopt(
    id: string,
    spec: BrowserSpec,
    resolved: Resolved,
    viewport: Viewport,
    origin: string,
    instance: I,
    loadedProfile?: Profile,
  ): BrowserEntry<I> {
    const urls = sessionUrls(this.#context, id, origin);
    const record = sessionRecord(id, spec, viewport, urls, this.#context.clock());
    if (resolved.allowNetworks !== 'unlimited')
      record.network = { allow: resolved.allowNetworks.map(formatNetworkEntry) };
    if (resolved.profile) {
      record.profile = {
        ...(loadedProfile ?? resolved.profile.record),
        save_changes: resolved.profile.save,
      };
    }
    const entry = this.#track(record, instance);
    entry.urlExpiresAt = urls.expiresAt;
    this.#context.log.info({ session: id }, 'browser started');
    entry.log.write('service', `browser ${id} started`);
    return entry;
  }

  /** Puts a record and its instance among the live browsers. */
  #track(record: BrowserSession, instance: I): BrowserEntry<I> {
    const entry = newBrowserEntry(record, instance, this.#context.clock);
    this.#live.add(entry);
    instance.onLog?.((line) => entry.log.write(line.process, line.message));
    instance.onTelemetry?.((event) => entry.telemetry.record(event));
    // A browser that ends by itself (a crash, a kill) ends its session, saving nothing.
    instance.onExit(() => {
      if (this.#live.get(record.session_id) === entry)
        void this.#ending.end(entry, { reason: 'crashed' });
    });
    return entry;
  }

  /**
   * Adopts a session record as it is given (the fake's seeds): a live one on a fresh instance,
   * which needs an engine that launches at once; a deleted one as a record only.
   */
  seed(record: BrowserSession): void {
    if (record.deleted_at) {
      persistBrowser(this.#context, { record });
      return;
    }
    const instance = this.#context.engines.browsers.launch({
      id: record.session_id,
      headless: record.headless,
      stealth: record.stealth,
      kioskMode: record.kiosk_mode ?? false,
      viewport: record.viewport ?? { ...DEFAULT_VIEWPORT },
      extensions: [],
      allowNetworks: checkBrowserNetworks(record.network?.allow ?? [], 'open', 'network.allow'),
      telemetry: telemetryCategories(record.telemetry),
    });
    if (instance instanceof Promise)
      throw new TypeError('Seeding needs an engine that launches at once.');
    const entry = this.#track(record, instance);
    if (record.name !== undefined) this.#live.claimName(record.name, record.session_id);
    entry.urlExpiresAt = Number.POSITIVE_INFINITY; // A seeded URL is kept as it was given.
    persistBrowser(this.#context, entry);
  }

  /** No new browser starts here (a deploy stops this node); the running ones go on. */
  drain(): void {
    this.#isDraining = true;
  }

  /** Whether this node drains: no new browser starts here. */
  get isDraining(): boolean {
    return this.#isDraining;
  }

  /**
   * No new browser starts from now (shutdown); resolves once those still starting have started
   * or failed.
   */
  close(): Promise<unknown> {
    this.#isClosed = true;
    return Promise.allSettled([...this.#startups]);
  }
}
