import { randomBytes } from 'node:crypto';
import type { LaunchSpec } from '@x/service-kernel';
import type { Logger } from 'pino';

/** What a spare is to the engine that starts it: a browser that runs, and closes. */
export interface SpareInstance {
  readonly isRunning: boolean;
  close(): Promise<void>;
  /** Hears it end by itself (a crash, a kill). */
  onExit(listener: () => void): void;
}

/** One browser started ahead, ready or still starting, for launches of one configuration. */
interface Spare<I> {
  readonly key: string;
  readonly id: string;
  readonly starting: Promise<I>;
  instance: I | undefined;
}

/**
 * The configuration a spare stands for, when a launch can take one: a plain browser (no
 * extension, profile, proxy, policy or page telemetry: nothing of the caller's is in it before it is
 * handed over), of this headless mode, stealth, window size and network. Undefined for any other.
 */
export function spareKey(spec: LaunchSpec): string | undefined {
  const isPlain =
    spec.extensions.length === 0 &&
    spec.profileId === undefined &&
    spec.proxy === undefined &&
    spec.chromePolicy === undefined &&
    (spec.telemetry ?? []).length === 0;
  if (!isPlain) return undefined;
  return JSON.stringify([
    spec.headless,
    spec.stealth,
    spec.viewport.width,
    spec.viewport.height,
    spec.allowNetworks,
  ]);
}

/**
 * Browsers started before anyone asks, so a create of the configuration most recently asked
 * for answers with one already running (its sandbox, user, disk, cgroup and network made, its
 * first page open) instead of starting one. A spare is taken by the next launch of its
 * configuration (while it is still starting too: it is ahead of a new start), and each take
 * starts the next. A launch of another configuration starts its own kind from then on: the
 * spares follow what is asked. They count against the node's browsers: a spare is only started
 * while there is room for it beside every browser the node runs, and one goes when a browser
 * that cannot take it needs its room. A spare that ends by itself is not started again until
 * the next launch asks for its kind. Pools' browsers are started ahead already: their starts
 * neither take spares nor call them up.
 */
export class SpareBrowsers<I extends SpareInstance> {
  readonly #count: number;
  readonly #start: (spec: LaunchSpec) => Promise<I>;
  readonly #logger: Logger;
  readonly #spares: Spare<I>[] = [];
  #isClosed = false;
  /** Browsers the node runs besides its spares, and how many it may (set by the server). */
  capacity: () => { readonly running: number; readonly max: number } = () => ({
    running: 0,
    max: Number.POSITIVE_INFINITY,
  });

  constructor(options: {
    count: number;
    start: (spec: LaunchSpec) => Promise<I>;
    logger: Logger;
  }) {
    this.#count = options.count;
    this.#start = options.start;
    this.#logger = options.logger;
  }

  /** Spares now, ready or starting. */
  get size(): number {
    return this.#spares.length;
  }

  /**
   * A running spare for this launch, taken (the next one starting behind it), or undefined:
   * the launch starts its browser itself. Another configuration's spares give way to it.
   */
  async take(spec: LaunchSpec): Promise<I | undefined> {
    if (this.#count === 0 || this.#isClosed) return undefined;
    const key = spareKey(spec);
    // A pool's browser is started ahead already: it neither takes a spare nor calls one up.
    if (key === undefined || spec.isForPool) {
      await this.#makeRoom();
      return undefined;
    }
    const index = this.#spares.findIndex((spare) => spare.key === key);
    const spare = index === -1 ? undefined : this.#spares.splice(index, 1)[0];
    // Spares of another configuration go: this one is what is asked for now.
    await Promise.all(
      this.#spares
        .filter((other) => other.key !== key)
        .map((other) => this.#discard(other, 'another configuration is asked for')),
    );
    if (!spare) {
      // Its own browser starts now, and a spare behind it where there is room.
      await this.#makeRoom();
      this.#fill(spec, key);
      return undefined;
    }
    this.#fill(spec, key);
    // A spare that failed to start is logged in `#fill`; the launch starts its own browser.
    const instance = await spare.starting.catch(() => undefined);
    if (instance?.isRunning) {
      this.#logger.debug({ session: spec.id, spare: spare.id }, 'a spare browser is taken');
      return instance;
    }
    await instance?.close().catch((error: unknown) => {
      this.#logger.warn({ err: error, spare: spare.id }, 'a spare browser failed to close');
    });
    return undefined;
  }

  /** The spares that have started. */
  ready(): I[] {
    return this.#spares.flatMap((spare) => (spare.instance ? [spare.instance] : []));
  }

  /** Resolves once every spare there is now has started (or failed to). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.#spares.map((spare) => spare.starting));
  }

  /** Closes every spare (shutdown); none starts after. */
  async close(): Promise<void> {
    this.#isClosed = true;
    await Promise.all(this.#spares.map((spare) => this.#discard(spare, 'the server stops')));
  }

  /**
   * Starts spares of `key` until there are `count` of them, while there is room beside the
   * node's browsers (which count the launch asking by then: it is past an await).
   */
  #fill(spec: LaunchSpec, key: string): void {
    while (!this.#isClosed && this.#spares.length < this.#count) {
      const { running, max } = this.capacity();
      if (running + this.#spares.length >= max) return;
      const id = `spare_${randomBytes(9).toString('base64url')}`;
      const spare: Spare<I> = {
        key,
        id,
        starting: this.#start({ ...spec, id }),
        instance: undefined,
      };
      this.#spares.push(spare);
      spare.starting.then(
        (instance) => {
          spare.instance = instance;
          // One that ends by itself is closed all the same: its sandbox, disk and user go.
          instance.onExit(() => {
            if (this.#spares.includes(spare)) void this.#discard(spare, 'it ended by itself');
          });
          if (this.#isClosed) void this.#discard(spare, 'the server stops');
        },
        (error: unknown) => {
          this.#forget(spare);
          this.#logger.warn({ err: error, spare: id }, 'a spare browser failed to start');
        },
      );
    }
  }

  /** Makes room for a browser that cannot take a spare: the node keeps to its maximum. */
  async #makeRoom(): Promise<void> {
    const { running, max } = this.capacity();
    const over = running + this.#spares.length - max;
    if (over <= 0) return;
    await Promise.all(
      this.#spares.slice(0, over).map((spare) => this.#discard(spare, 'its room is needed')),
    );
  }

  #forget(spare: Spare<I>): void {
    const index = this.#spares.indexOf(spare);
    if (index !== -1) this.#spares.splice(index, 1);
  }

  async #discard(spare: Spare<I>, why: string): Promise<void> {
    this.#forget(spare);
    this.#logger.debug({ spare: spare.id, why }, 'a spare browser closes');
    // A spare that failed to start is logged in `#fill` and has nothing to close.
    const instance = await spare.starting.catch(() => undefined);
    await instance?.close().catch((error: unknown) => {
      this.#logger.warn({ err: error, spare: spare.id }, 'a spare browser failed to close');
    });
  }
}
