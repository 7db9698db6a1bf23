import type {
  BrowserEndReason,
  BrowserListQuery,
  BrowserSession,
  Page,
  UpdateBrowserBody,
  Viewport,
} from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { ExtensionModel } from '../extensions/extension-model.js';
import type { InvocationModel } from '../invocations/invocation-model.js';
import type { ModelContext } from '../model-context.js';
import type { ProfileModel } from '../profiles/profile-model.js';
import type { ProxyModel } from '../proxies/proxy-model.js';
import { BrowserActivity } from './browser-activity.js';
import { BrowserChecks, type Eventually, type Resolved } from './browser-check.js';
import { BrowserEnding, type HowEnded } from './browser-ending.js';
import type { BrowserEntry } from './browser-entry.js';
import type { BrowserHooks } from './browser-hooks.js';
import { BrowserLauncher } from './browser-launch.js';
import { BrowserReads } from './browser-reads.js';
import { endLostBrowsers, recoverBrowsers } from './browser-recovery.js';
import type { BrowserSpec } from './browser-spec.js';
import { BrowserUpdates } from './browser-update.js';
import { LiveBrowsers } from './live-browsers.js';

export type { HowEnded } from './browser-ending.js';
export type { BrowserSpec } from './browser-spec.js';

/**
 * Every rule of browser sessions: creating (checks, capacity, the record and its URLs), reading,
 * activity and the idle time-out, and what deleting one takes with it. Each job is a part of its
 * own (checks, launch, the live set, activity, reads, updates, ending, recovery); this class
 * holds them together and is what the rest of the service uses.
 */
export class BrowserModel<I extends BrowserInstance> implements BrowserHooks<I> {
  readonly #context: ModelContext<I>;
  readonly #live: LiveBrowsers<I>;
  readonly #checks: BrowserChecks<I>;
  readonly #launcher: BrowserLauncher<I>;
  readonly #ending: BrowserEnding<I>;
  readonly #activity: BrowserActivity<I>;
  readonly #reads: BrowserReads<I>;
  readonly #updates: BrowserUpdates<I>;
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
    const models = { extensions, invocations, profiles, proxies };
    // The parts read the hooks from this model each time: the service model sets them later.
    this.#live = new LiveBrowsers(context);
    this.#checks = new BrowserChecks(context, models, this.#live, this);
    this.#ending = new BrowserEnding(context, profiles, this.#live, this);
    this.#launcher = new BrowserLauncher(
      context,
      models,
      this.#live,
      this.#checks,
      this.#ending,
      this,
    );
    this.#activity = new BrowserActivity(context, this.#live, this.#ending, this);
    this.#reads = new BrowserReads(context, this.#live, this);
    this.#updates = new BrowserUpdates(context, proxies, this.#live, this.#reads, this);
  }

  /** Throws what creating a browser of `spec` would answer before anything starts. */
  check(spec: BrowserSpec): Eventually<Resolved> {
    return this.#checks.check(spec);
  }

  /** What the project holds on a cluster's other nodes, toward its cap on sessions. */
  elsewhere(): Promise<number> {
    return this.#checks.elsewhere();
  }

  /** Starts a browser; 429 with Retry-After at capacity, 503 while shutting down. */
  create(spec: BrowserSpec, origin: string): Eventually<BrowserEntry<I>> {
    return this.#launcher.create(spec, origin);
  }

  /** Adopts a session record as it is given (the fake's seeds). */
  seed(record: BrowserSession): void {
    this.#launcher.seed(record);
  }

  /** The session record as it reads now, with its uptime. */
  record(entry: BrowserEntry<I>): BrowserSession {
    return this.#reads.record(entry);
  }

  /** A session record by id, a deleted one too, or a running browser's by name; else 404. */
  get(idOrName: string): Promise<BrowserSession> {
    return this.#reads.get(idOrName);
  }

  /** Changes a running browser (by id or name); every refusal comes before anything changes. */
  update(idOrName: string, body: UpdateBrowserBody): Promise<BrowserSession> {
    return this.#updates.update(idOrName, body);
  }

  /** The live browsers, oldest first; of one invocation when given. */
  list(invocationId?: string): BrowserSession[] {
    return this.#reads.list(invocationId);
  }

  /** One page of the sessions, oldest first: running, ended, or both. */
  page(query: BrowserListQuery): Promise<Page<BrowserSession>> {
    return this.#reads.page(query);
  }

  /** A live browser, the call counting as activity; 404 when it does not run. */
  live(id: string): BrowserEntry<I> {
    return this.#activity.live(id);
  }

  /** Browsers running, starting, or ended and still closing. */
  count(): number {
    return this.#live.count();
  }

  /** Browsers running or starting that no pool keeps. */
  onDemandCount(): number {
    return this.#live.onDemandCount();
  }

  entries(): BrowserEntry<I>[] {
    return this.#live.entries();
  }

  /** A live browser without counting activity (the CDP proxy looks before it connects). */
  peek(id: string): BrowserEntry<I> | undefined {
    return this.#live.get(id);
  }

  /** Counts activity on a live browser (its CDP connection is busy). */
  touch(id: string): void {
    this.#activity.touch(id);
  }

  /** Counts a connected client as activity while it stays; gives the call that says it left. */
  connect(id: string): () => void {
    return this.#activity.connect(id);
  }

  /** Whether a pool keeps the browser warm: then it has no idle time-out. */
  setWarm(entry: BrowserEntry<I>, isWarm: boolean): void {
    this.#activity.setWarm(entry, isWarm);
  }

  /** Deletes a running browser, by id or name; 404 when it does not run. */
  delete(idOrName: string): Promise<void> {
    return this.#ending.delete(idOrName);
  }

  /** Ends a browser, however it ends; resolves once its instance has closed. */
  end(entry: BrowserEntry<I>, how: HowEnded): Promise<void> {
    return this.#ending.end(entry, how);
  }

  /** Ends a browser as `end` does, but answers once its session is over. */
  endSoon(entry: BrowserEntry<I>, how: HowEnded): Promise<void> {
    return this.#ending.endSoon(entry, how);
  }

  /** Deletes the browsers idle past their `timeout_seconds` (pools' warm ones have none). */
  sweep(): void {
    this.#activity.sweep();
  }

  /** Marks the records of browsers an earlier run left open as deleted. */
  recover(): Promise<number> {
    return recoverBrowsers(this.#context);
  }

  /** Marks the records of the sessions a lost node of the cluster ran as ended, `node_lost`. */
  endLost(isOf: (sessionId: string) => boolean): Promise<number> {
    return endLostBrowsers(this.#context, isOf);
  }

  /** No new browser starts here (a deploy stops this node); the running ones go on. */
  drain(): void {
    this.#launcher.drain();
  }

  /** Ends every warm browser here (a pool's, idle): a drained node hands none out. */
  endWarm(): void {
    this.#ending.endWarm();
  }

  /** Whether this node drains: no new browser starts here. */
  get isDraining(): boolean {
    return this.#launcher.isDraining;
  }

  /** Browsers in use: starting, running, or ended and still closing; pools' idle ones left out. */
  busyCount(): number {
    return this.#live.busyCount();
  }

  /**
   * Ends every running browser for `reason` (a node of a cluster that was declared lost ends
   * what it runs: others have marked it ended already); new ones may start after.
   */
  endAll(reason: BrowserEndReason): Promise<number> {
    return this.#ending.endAll(reason);
  }

  /** Ends every browser (shutdown), those still starting included; no new one starts after. */
  async close(): Promise<void> {
    await this.#launcher.close();
    await Promise.all(
      this.#live.entries().map((entry) => this.#ending.end(entry, { reason: 'server_stopped' })),
    );
    await this.#ending.settled();
  }
}
