import {
  type BrowserEndReason,
  type BrowserListQuery,
  type BrowserSession,
  formatNetworkEntry,
  type NetworkEntry,
  type Page,
  type Profile,
  pageOf,
  resolveTelemetry,
  telemetryCategories,
  type UpdateBrowserBody,
  type Viewport,
} from '@x/types';
import type { BrowserInstance, ProxyRoute } from '../engines.js';
import type { ExtensionModel } from '../extensions/extension-model.js';
import { endWatch } from '../fs-watch/watch-entry.js';
import type { InvocationModel } from '../invocations/invocation-model.js';
import { isOutOfResources, isStorageFull, notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { signalProcess } from '../processes/process-entry.js';
import type { ProfileModel } from '../profiles/profile-model.js';
import type { ProxyModel } from '../proxies/proxy-model.js';
import type { StoredExtension } from '../records/record-store.js';
import { finishRecording } from '../replays/recording.js';
import { ServiceError } from '../service-error.js';
import { type BrowserEntry, newBrowserEntry } from './browser-entry.js';
import {
  closeOpenRecords,
  endedRecord,
  isSignInBrowser,
  saveSessionRecord,
  sessionRecord,
  uptimeMs,
} from './browser-records.js';
import { type BrowserSpec, DEFAULT_VIEWPORT } from './browser-spec.js';
import { checkBrowserNetworks, effectiveNetworks } from './network-allow.js';
import { renewSessionUrl, sessionUrls } from './session-url.js';

export type { BrowserSpec } from './browser-spec.js';

/** Why a browser ends (kept in its record as `end_reason`). */
export interface HowEnded {
  readonly reason: BrowserEndReason;
}

/** A value now, or later: an in-memory engine answers at once. */
type Eventually<T> = T | Promise<T>;

/** What a browser's spec names, found: its extensions, profile and proxy. */
interface Resolved {
  readonly extensions: StoredExtension[];
  readonly profile?: { readonly record: Profile; readonly save: boolean } | undefined;
  readonly proxy?: ProxyRoute | undefined;
  /** What its network may reach besides the public internet; `unlimited` where no policy holds. */
  readonly allowNetworks: readonly NetworkEntry[] | 'unlimited';
  /** What the project holds on a cluster's other nodes, toward its cap (`elsewhere`). */
  readonly elsewhere?: number | undefined;
}

/**
 * Every rule of browser sessions: creating (checks, capacity, the record and its URLs), reading,
 * activity and the idle time-out, and what deleting one takes with it.
 */
export class BrowserModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #extensions: ExtensionModel<I>;
  readonly #invocations: InvocationModel<I>;
  readonly #profiles: ProfileModel<I>;
  readonly #proxies: ProxyModel<I>;
  readonly #live = new Map<string, BrowserEntry<I>>();
  /** Names of the running browsers, and of those starting, to the session holding each. */
  readonly #names = new Map<string, string>();
  /** Browsers being started: they count against capacity, and shutdown waits for them. */
  readonly #startups = new Set<Promise<unknown>>();
  #starting = 0;
  /** Ended browsers whose instances are still closing, and their closes. */
  #closing = 0;
  readonly #closings = new Set<Promise<void>>();
  /** Of those, the ones no pool started (they count against the project's cap). */
  #startingOnDemand = 0;
  #isClosed = false;
  #isDraining = false;
  /** Browsers the project's pools keep (their sizes together): set by the service model. */
  reserved: () => number = () => 0;
  /** Hears about every browser that ended, once its instance is closed: its pool refills. */
  onEnded: (record: BrowserSession) => void = () => undefined;
  /** Hears about a browser that begins to end, before anything of it stops: its viewers go. */
  onEnding: (id: string) => void = () => undefined;
  /** How many people watch a browser's live view now (the live view model knows). */
  viewersOf: (id: string) => number = () => 0;
  /**
   * Runs `work` (a resize) on a browser being recorded: the replay model ends its recordings
   * before and starts new ones after.
   */
  whileRecorded: (entry: BrowserEntry<I>, work: () => Promise<void>) => Promise<void> = (
    _entry,
    work,
  ) => work();
  /** Hears that a browser's window changed size (its live viewers are told). */
  onResized: (id: string, viewport: Viewport) => void = () => undefined;

  constructor(
    context: ModelContext<I>,
    extensions: ExtensionModel<I>,
    invocations: InvocationModel<I>,
    profiles: ProfileModel<I>,
    proxies: ProxyModel<I>,
  ) {
    this.#context = context;
    this.#extensions = extensions;
    this.#invocations = invocations;
    this.#profiles = profiles;
    this.#proxies = proxies;
  }

  /**
   * Throws what creating a browser of `spec` would answer before anything starts: 404 for an
   * unknown invocation, extension, profile or proxy, 409 for an ended invocation or a profile
   * another browser saves into, 400 for what the engine cannot start. Gives what it names: at
   * once when it names nothing kept in the store (a pool's plain browsers start in the same
   * turn on an in-memory engine), else once the store has answered.
   */
  check(spec: BrowserSpec): Eventually<Resolved> {
    if (spec.gpu === true) throw refusals.noGpu();
    const allowNetworks = effectiveNetworks(
      spec.network?.allow,
      this.#context.settings.allowNetworks ?? 'open',
      spec.pool ? 'browser_pool_config.network.allow' : 'body.network.allow',
    );
    this.#context.engines.browsers.check(spec);
    const namesStored =
      // A cluster's other nodes hold names, and count toward a cap: the store knows them.
      (this.#context.settings.isShared === true &&
        (spec.name !== undefined || this.#isCapped(spec))) ||
      spec.invocation_id !== undefined ||
      (spec.extensions ?? []).length > 0 ||
      spec.profile !== undefined ||
      spec.proxy_id !== undefined;
    if (!namesStored) return { extensions: [], allowNetworks };
    return this.#resolve(spec, allowNetworks);
  }

  async #resolve(spec: BrowserSpec, allowNetworks: Resolved['allowNetworks']): Promise<Resolved> {
    if (spec.name !== undefined && this.#context.settings.isShared)
      await this.#assertNameFreeOnOtherNodes(spec.name, undefined);
    if (spec.invocation_id) await this.#invocations.running(spec.invocation_id);
    const extensions = await this.#extensions.resolve(spec.extensions ?? []);
    let profile: Resolved['profile'];
    if (spec.profile) {
      const record = await this.#profiles.resolve(spec.profile);
      const save = spec.profile.save_changes === true;
      const named = (spec.profile.id ?? spec.profile.name) as string;
      if (save) this.#profiles.checkWritable(record, named);
      // A cluster's other nodes hold writers too: the store knows their running browsers'.
      if (save && this.#context.settings.isShared) {
        const writer = (await this.#openElsewhere()).find(
          (other) => other.profile?.id === record.id && other.profile.save_changes === true,
        );
        if (writer) throw refusals.profileHeld(named, writer.session_id);
      }
      profile = { record, save };
    }
    const proxy =
      spec.proxy_id === undefined ? undefined : await this.#proxies.route(spec.proxy_id);
    const elsewhere = this.#isCapped(spec) ? await this.elsewhere() : undefined;
    return { extensions, profile, proxy, allowNetworks, elsewhere };
  }

  /** Whether the project's cap on sessions holds this browser (a pool's count by its size). */
  #isCapped(spec: BrowserSpec): boolean {
    return spec.pool === undefined && this.#context.quota.sessions() !== undefined;
  }

  /**
   * What the project holds on a cluster's other nodes, toward its cap on sessions: their running
   * browsers that are not a pool's, and the sizes of the pools they hold, read from the store
   * (a read, then the start: two creates at the same instant on two nodes can both pass). 0 for
   * a server alone.
   */
  async elsewhere(): Promise<number> {
    if (!this.#context.settings.isShared) return 0;
    const running = (await this.#openElsewhere()).filter((record) => record.pool === undefined);
    let pools = 0;
    for (const pool of await this.#context.engines.records.pools.list()) pools += pool.config.size;
    return running.length + Math.max(0, pools - this.reserved());
  }

  /**
   * Starts a browser; 429 with Retry-After at capacity, 503 while shutting down. At once when
   * nothing of the spec is in the store and the engine launches at once (the fake).
   */
  create(spec: BrowserSpec, origin: string): Eventually<BrowserEntry<I>> {
    const resolved = this.check(spec);
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
      this.onDemandCount() + this.reserved() + (resolved.elsewhere ?? 0) >= cap
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
    if (spec.name !== undefined) this.#claimName(spec.name, id);
    const { profile } = resolved;
    // Held from now, so a second writer is refused while this one starts.
    if (profile?.save) this.#profiles.hold(profile.record, id);
    const release = () => {
      if (profile?.save) this.#profiles.release(profile.record.id, id);
      this.#freeName(spec.name, id);
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
      this.#persist(entry);
      return entry;
    }
    const onDemand = spec.pool ? 0 : 1;
    this.#starting++;
    this.#startingOnDemand += onDemand;
    const starting = launched.then(
      (instance) => {
        this.#starting--;
        this.#startingOnDemand -= onDemand;
        return this.#adoptStarted(id, spec, resolved, viewport, origin, instance).catch(
          (error: unknown) => {
            release();
            throw error;
          },
        );
      },
      (error: unknown) => {
        this.#starting--;
        this.#startingOnDemand -= onDemand;
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
      await this.#extensions.markUsed(resolved.extensions);
      const loaded = resolved.profile && (await this.#profiles.markUsed(resolved.profile.record));
      entry = this.#adopt(id, spec, resolved, viewport, origin, instance, loaded);
      await this.#save(entry);
      // Its invocation may have ended while it started (its code returned, a cancel): the end
      // ended the browsers it found, not one still starting, so this one ends itself (409).
      if (spec.invocation_id) await this.#invocations.running(spec.invocation_id);
      return entry;
    } catch (error) {
      // Not stored, not kept: a browser nobody can find again is closed at once.
      if (entry) await this.end(entry, { reason: 'invocation_ended' });
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
    this.#live.set(record.session_id, entry);
    instance.onLog?.((line) => entry.log.write(line.process, line.message));
    instance.onTelemetry?.((event) => entry.telemetry.record(event));
    // A browser that ends by itself (a crash, a kill) ends its session, saving nothing.
    instance.onExit(() => {
      if (this.#live.get(record.session_id) === entry) void this.end(entry, { reason: 'crashed' });
    });
    return entry;
  }

  /**
   * Adopts a session record as it is given (the fake's seeds): a live one on a fresh instance,
   * which needs an engine that launches at once; a deleted one as a record only.
   */
  seed(record: BrowserSession): void {
    if (record.deleted_at) {
      this.#persist({ record });
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
    if (record.name !== undefined) this.#claimName(record.name, record.session_id);
    entry.urlExpiresAt = Number.POSITIVE_INFINITY; // A seeded URL is kept as it was given.
    this.#persist(entry);
  }

  #save(entry: { readonly record: BrowserSession }): Promise<void> {
    return saveSessionRecord(this.#context.engines.records.browsers, entry.record);
  }

  /** Saves a record without waiting for it; a store that refuses is logged. */
  #persist(entry: { readonly record: BrowserSession }): void {
    this.#save(entry).catch((error: unknown) => {
      this.#context.log.error(
        { err: error, session: entry.record.session_id },
        'a browser record could not be stored',
      );
    });
  }

  /**
   * The session record as it reads now, with its uptime. A URL with less than half its lifetime
   * left is signed again, so a URL read from a live session is valid for at least 12 h (the
   * renewed URL is stored without holding the answer: the live entry is what answers).
   */
  record(entry: BrowserEntry<I>): BrowserSession {
    if (renewSessionUrl(this.#context, entry)) this.#persist(entry);
    return {
      ...entry.record,
      viewers: this.viewersOf(entry.record.session_id),
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
    const entry = this.#find(idOrName);
    if (entry && !isSignInBrowser(entry.record)) return this.record(entry);
    const record = entry ? undefined : await this.#context.engines.records.browsers.get(idOrName);
    if (!record) throw notFound('browser session', idOrName);
    return record;
  }

  /** The running browsers of a cluster's other nodes, as the store has them. */
  async #openElsewhere(): Promise<BrowserSession[]> {
    const open = await this.#context.engines.records.browsers.list({ isOpen: true });
    return open.filter((record) => !this.#live.has(record.session_id));
  }

  /** 409 when a running browser of another node of the cluster (not `id`) holds `name`. */
  async #assertNameFreeOnOtherNodes(name: string, id: string | undefined): Promise<void> {
    const holder = (await this.#openElsewhere()).find(
      (record) => record.name === name && record.session_id !== id,
    );
    if (holder) throw refusals.browserNameTaken(name, holder.session_id);
  }

  /** A running browser by id, then by name. */
  #find(idOrName: string): BrowserEntry<I> | undefined {
    const entry = this.#live.get(idOrName);
    if (entry) return entry;
    const holder = this.#names.get(idOrName);
    return holder === undefined ? undefined : this.#live.get(holder);
  }

  /** 409 when a running (or starting) browser other than session `id` holds `name`. */
  #assertNameFree(name: string, id: string): void {
    const holder = this.#names.get(name);
    if (holder !== undefined && holder !== id) throw refusals.browserNameTaken(name, holder);
  }

  /** Gives `name` to session `id`; 409 when another running (or starting) browser holds it. */
  #claimName(name: string, id: string): void {
    this.#assertNameFree(name, id);
    this.#names.set(name, id);
  }

  /** Lets `name` go, if session `id` holds it. */
  #freeName(name: string | undefined, id: string): void {
    if (name !== undefined && this.#names.get(name) === id) this.#names.delete(name);
  }

  /**
   * Changes a running browser (by id or name): its name ("" clears it; 409 when another
   * running browser has it), its tags (replaced whole), its idle time-out, the proxy its new
   * connections take ("" direct; 404 for an unknown proxy), and its window size, applied to the
   * browser at once (409 while it is recorded, unless `force`: then each recording ends, kept,
   * and a new one starts at the new size). Every refusal comes before anything changes.
   */
  async update(idOrName: string, body: UpdateBrowserBody): Promise<BrowserSession> {
    const entry = this.#find(idOrName);
    if (!entry) throw notFound('browser session', idOrName);
    const id = entry.record.session_id;
    entry.lastActivityAt = this.#context.clock().getTime();
    const oldName = entry.record.name;
    const newName =
      body.name === null || body.name === undefined ? oldName : body.name || undefined;
    if (newName !== oldName && newName !== undefined) {
      this.#assertNameFree(newName, id);
      if (this.#context.settings.isShared) await this.#assertNameFreeOnOtherNodes(newName, id);
    }
    const { viewport } = body;
    const recording = viewport
      ? (entry.replayStarting ??
        [...entry.recordings.values()].find((r) => !r.stopping)?.record.replay_id)
      : undefined;
    if (viewport && recording !== undefined && !viewport.force)
      throw refusals.recordingBlocksResize(id, recording);
    // A proxy is found (404 for an unknown one) before anything changes.
    const oldProxy = entry.record.proxy_id;
    const newProxy =
      body.proxy_id === null || body.proxy_id === undefined ? oldProxy : body.proxy_id || undefined;
    const route =
      newProxy !== oldProxy && newProxy !== undefined
        ? await this.#proxies.route(newProxy)
        : undefined;
    if (newProxy !== oldProxy) {
      await entry.instance.setProxy(route);
      entry.record = { ...entry.record };
      if (newProxy === undefined) delete entry.record.proxy_id;
      else entry.record.proxy_id = newProxy;
      entry.log.write(
        'service',
        `new connections go ${newProxy ? `through proxy ${newProxy}` : 'direct'}`,
      );
    }
    if (viewport) {
      const size: Viewport = { width: viewport.width, height: viewport.height };
      if (viewport.refresh_rate !== undefined) size.refresh_rate = viewport.refresh_rate;
      const apply = () => entry.instance.setViewport(size);
      if (recording === undefined) await apply();
      else await this.whileRecorded(entry, apply);
      entry.record = { ...entry.record, viewport: size };
      this.onResized(id, size);
    }
    if (this.#live.get(id) !== entry) throw notFound('browser session', idOrName);
    if (newName !== oldName) {
      // Claimed after the resize: a rename raced in meanwhile is refused here, before any save.
      if (newName !== undefined) this.#claimName(newName, id);
      this.#freeName(oldName, id);
    }
    const record: BrowserSession = { ...entry.record };
    if (newName === undefined) delete record.name;
    else record.name = newName;
    if (body.tags !== undefined && body.tags !== null) {
      if (Object.keys(body.tags).length === 0) delete record.tags;
      else record.tags = { ...body.tags };
    }
    if (body.timeout_seconds !== undefined) record.timeout_seconds = body.timeout_seconds;
    entry.record = record;
    await this.#save(entry);
    return this.record(entry);
  }

  /** The live browsers, oldest first; of one invocation when given. */
  list(invocationId?: string): BrowserSession[] {
    return [...this.#live.values()]
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

  /** A live browser, the call counting as activity; 404 when it does not run. */
  live(id: string): BrowserEntry<I> {
    const entry = this.#live.get(id);
    if (!entry) throw notFound('browser session', id);
    entry.lastActivityAt = this.#context.clock().getTime();
    return entry;
  }

  /** Browsers running, starting, or ended and still closing. */
  count(): number {
    return this.#live.size + this.#starting + this.#closing;
  }

  /** Browsers running or starting that no pool keeps. */
  onDemandCount(): number {
    let count = this.#startingOnDemand;
    for (const entry of this.#live.values()) if (!entry.record.pool) count++;
    return count;
  }

  entries(): BrowserEntry<I>[] {
    return [...this.#live.values()];
  }

  /** A live browser without counting activity (the CDP proxy looks before it connects). */
  peek(id: string): BrowserEntry<I> | undefined {
    return this.#live.get(id);
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

  /**
   * Deletes a running browser, by id or name; 404 when it does not run. Resolves once nothing of
   * it runs.
   */
  delete(idOrName: string): Promise<void> {
    const entry = this.#find(idOrName);
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
    this.#closing++;
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
    this.#freeName(entry.record.name, id);
    this.onEnding(id);
    entry.log.write(
      'service',
      crashed ? `browser ${id} exited by itself` : `browser ${id} ends (${how.reason})`,
    );
    entry.ending.abort();
    entry.record = endedRecord(entry.record, this.#context.clock(), how.reason);
    // A store that cannot take the record (a full disk, a database away) does not keep the
    // browser running: it ends all the same while the record is stored, and the record is
    // stored again once its instance has freed its room.
    const saving = this.#trySave(entry);
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
        this.#closing--;
      }
      if (!(await saving) && !(await this.#trySave(entry))) {
        this.#context.log.error(
          { session: id },
          'the ended browser is not marked deleted in the store: the next start marks it',
        );
      }
      this.#context.log.info({ session: id }, 'browser deleted');
      try {
        this.onEnded(entry.record);
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

  /** Saves the record; says whether the store took it (a failure is logged). */
  async #trySave(entry: BrowserEntry<I>): Promise<boolean> {
    try {
      await this.#save(entry);
      return true;
    } catch (error) {
      this.#context.log.error(
        { err: error, session: entry.record.session_id },
        'a browser record could not be stored',
      );
      return false;
    }
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

  /** Deletes the browsers idle past their `timeout_seconds` (pools' warm ones have none). */
  sweep(): void {
    const now = this.#context.clock().getTime();
    for (const entry of [...this.#live.values()]) {
      if (entry.isWarm) continue;
      // A client connected, or someone watching its live view, is activity, however quiet.
      if (entry.clients > 0 || this.viewersOf(entry.record.session_id) > 0)
        entry.lastActivityAt = now;
      if (now - entry.lastActivityAt > entry.record.timeout_seconds * 1000) {
        this.#context.log.info(
          { session: entry.record.session_id },
          'browser idle past its time-out',
        );
        void this.end(entry, { reason: 'timed_out' });
      }
    }
  }

  /**
   * Marks the records of browsers an earlier run left open as deleted: after a restart none of
   * them is driven any more.
   */
  recover(): Promise<number> {
    return closeOpenRecords(
      this.#context.engines.records,
      this.#context.clock(),
      'server_restarted',
      this.#context.settings.owns,
    );
  }

  /**
   * Marks the records of the sessions a lost node of the cluster ran (`isOf` picks them by id)
   * as ended, `node_lost`: nothing runs them any more. Gives how many there were.
   */
  endLost(isOf: (sessionId: string) => boolean): Promise<number> {
    return closeOpenRecords(
      this.#context.engines.records,
      this.#context.clock(),
      'node_lost',
      isOf,
    );
  }

  /** No new browser starts here (a deploy stops this node); the running ones go on. */
  drain(): void {
    this.#isDraining = true;
  }

  /**
   * Ends every warm browser here (a pool's, idle): a drained node hands none out, and their
   * pools start others where browsers may start.
   */
  endWarm(): void {
    for (const entry of [...this.#live.values()]) {
      if (!entry.isWarm) continue;
      this.endSoon(entry, { reason: 'pool_changed' }).catch((error: unknown) => {
        this.#context.log.warn(
          { err: error, session: entry.record.session_id },
          'a warm browser did not end well',
        );
      });
    }
  }

  /** Whether this node drains: no new browser starts here. */
  get isDraining(): boolean {
    return this.#isDraining;
  }

  /** Browsers in use: starting, running, or ended and still closing; pools' idle ones left out. */
  busyCount(): number {
    let count = this.#starting + this.#closing;
    for (const entry of this.#live.values()) if (!entry.isWarm) count++;
    return count;
  }

  /**
   * Ends every running browser for `reason` (a node of a cluster that was declared lost ends
   * what it runs: others have marked it ended already); new ones may start after.
   */
  async endAll(reason: BrowserEndReason): Promise<number> {
    const entries = [...this.#live.values()];
    await Promise.all(entries.map((entry) => this.end(entry, { reason })));
    return entries.length;
  }

  /** Ends every browser (shutdown), those still starting included; no new one starts after. */
  async close(): Promise<void> {
    this.#isClosed = true;
    await Promise.allSettled([...this.#startups]);
    await Promise.all(
      [...this.#live.values()].map((entry) => this.end(entry, { reason: 'server_stopped' })),
    );
    await Promise.allSettled([...this.#closings]);
  }
}
