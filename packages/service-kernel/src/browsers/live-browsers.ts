import type { BrowserSession } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import type { BrowserEntry } from './browser-entry.js';

/**
 * The browsers of this node: the running ones, by id and by name (names are unique among the
 * running browsers), and how many are starting or still closing, which count as the running do.
 */
export class LiveBrowsers<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #live = new Map<string, BrowserEntry<I>>();
  /** Names of the running browsers, and of those starting, to the session holding each. */
  readonly #names = new Map<string, string>();
  /** Browsers being started: they count against capacity. */
  #starting = 0;
  /** Of those, the ones no pool started (they count against the project's cap). */
  #startingOnDemand = 0;
  /** Ended browsers whose instances are still closing. */
  #closing = 0;

  constructor(context: ModelContext<I>) {
    this.#context = context;
  }

  /** A running browser by id, if any. */
  get(id: string): BrowserEntry<I> | undefined {
    return this.#live.get(id);
  }

  /** Puts a browser among the running ones. */
  add(entry: BrowserEntry<I>): void {
    this.#live.set(entry.record.session_id, entry);
  }

  /** Takes a browser that ends out of the running ones. */
  delete(id: string): void {
    this.#live.delete(id);
  }

  /** The running browsers, oldest first (a copy: they may end meanwhile). */
  entries(): BrowserEntry<I>[] {
    return [...this.#live.values()];
  }

  /** A browser begins to start; `onDemand` is 1 when no pool starts it, else 0. */
  startBegins(onDemand: number): void {
    this.#starting++;
    this.#startingOnDemand += onDemand;
  }

  /** A start ended, made or failed (`onDemand` as it began). */
  startEnds(onDemand: number): void {
    this.#starting--;
    this.#startingOnDemand -= onDemand;
  }

  /** An ended browser's instance begins to close. */
  closeBegins(): void {
    this.#closing++;
  }

  /** An ended browser's instance has closed, or failed to. */
  closeEnds(): void {
    this.#closing--;
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

  /** Browsers in use: starting, running, or ended and still closing; pools' idle ones left out. */
  busyCount(): number {
    let count = this.#starting + this.#closing;
    for (const entry of this.#live.values()) if (!entry.isWarm) count++;
    return count;
  }

  /** A running browser by id, then by name. */
  find(idOrName: string): BrowserEntry<I> | undefined {
    const entry = this.#live.get(idOrName);
    if (entry) return entry;
    const holder = this.#names.get(idOrName);
    return holder === undefined ? undefined : this.#live.get(holder);
  }

  /** 409 when a running (or starting) browser other than session `id` holds `name`. */
  assertNameFree(name: string, id: string): void {
    const holder = this.#names.get(name);
    if (holder !== undefined && holder !== id) throw refusals.browserNameTaken(name, holder);
  }

  /** Gives `name` to session `id`; 409 when another running (or starting) browser holds it. */
  claimName(name: string, id: string): void {
    this.assertNameFree(name, id);
    this.#names.set(name, id);
  }

  /** Lets `name` go, if session `id` holds it. */
  freeName(name: string | undefined, id: string): void {
    if (name !== undefined && this.#names.get(name) === id) this.#names.delete(name);
  }

  /** The running browsers of a cluster's other nodes, as the store has them. */
  async openElsewhere(): Promise<BrowserSession[]> {
    const open = await this.#context.engines.records.browsers.list({ isOpen: true });
    return open.filter((record) => !this.#live.has(record.session_id));
  }

  /** 409 when a running browser of another node of the cluster (not `id`) holds `name`. */
  async assertNameFreeOnOtherNodes(name: string, id: string | undefined): Promise<void> {
    const holder = (await this.openElsewhere()).find(
      (record) => record.name === name && record.session_id !== id,
    );
    if (holder) throw refusals.browserNameTaken(name, holder.session_id);
  }
}
