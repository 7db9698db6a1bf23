import type { NetworkEntry, Profile } from '@x/types';
import type { BrowserInstance, ProxyRoute } from '../engines.js';
import type { ExtensionModel } from '../extensions/extension-model.js';
import type { InvocationModel } from '../invocations/invocation-model.js';
import { refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import type { ProfileModel } from '../profiles/profile-model.js';
import type { ProxyModel } from '../proxies/proxy-model.js';
import type { StoredExtension } from '../records/record-store.js';
import type { BrowserHooks } from './browser-hooks.js';
import type { BrowserSpec } from './browser-spec.js';
import type { LiveBrowsers } from './live-browsers.js';
import { effectiveNetworks } from './network-allow.js';

/** A value now, or later: an in-memory engine answers at once. */
export type Eventually<T> = T | Promise<T>;

/** The models that keep what a browser's spec may name. */
export interface SpecModels<I extends BrowserInstance> {
  readonly extensions: ExtensionModel<I>;
  readonly invocations: InvocationModel<I>;
  readonly profiles: ProfileModel<I>;
  readonly proxies: ProxyModel<I>;
}

/** What a browser's spec names, found: its extensions, profile and proxy. */
export interface Resolved {
  readonly extensions: StoredExtension[];
  readonly profile?: { readonly record: Profile; readonly save: boolean } | undefined;
  readonly proxy?: ProxyRoute | undefined;
  /** What its network may reach besides the public internet; `unlimited` where no policy holds. */
  readonly allowNetworks: readonly NetworkEntry[] | 'unlimited';
  /** What the project holds on a cluster's other nodes, toward its cap (`elsewhere`). */
  readonly elsewhere?: number | undefined;
}

/**
 * What creating a browser checks before anything starts: the refusals it answers, and what its
 * spec names, found in the store.
 */
export class BrowserChecks<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #models: SpecModels<I>;
  readonly #live: LiveBrowsers<I>;
  readonly #hooks: Pick<BrowserHooks<I>, 'reserved'>;

  constructor(
    context: ModelContext<I>,
    models: SpecModels<I>,
    live: LiveBrowsers<I>,
    hooks: Pick<BrowserHooks<I>, 'reserved'>,
  ) {
    this.#context = context;
    this.#models = models;
    this.#live = live;
    this.#hooks = hooks;
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
      await this.#live.assertNameFreeOnOtherNodes(spec.name, undefined);
    if (spec.invocation_id) await this.#models.invocations.running(spec.invocation_id);
    const extensions = await this.#models.extensions.resolve(spec.extensions ?? []);
    let profile: Resolved['profile'];
    if (spec.profile) {
      const record = await this.#models.profiles.resolve(spec.profile);
      const save = spec.profile.save_changes === true;
      const named = (spec.profile.id ?? spec.profile.name) as string;
      if (save) this.#models.profiles.checkWritable(record, named);
      // A cluster's other nodes hold writers too: the store knows their running browsers'.
      if (save && this.#context.settings.isShared) {
        const writer = (await this.#live.openElsewhere()).find(
          (other) => other.profile?.id === record.id && other.profile.save_changes === true,
        );
        if (writer) throw refusals.profileHeld(named, writer.session_id);
      }
      profile = { record, save };
    }
    const proxy =
      spec.proxy_id === undefined ? undefined : await this.#models.proxies.route(spec.proxy_id);
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
    const running = (await this.#live.openElsewhere()).filter(
      (record) => record.pool === undefined,
    );
    let pools = 0;
    for (const pool of await this.#context.engines.records.pools.list()) pools += pool.config.size;
    return running.length + Math.max(0, pools - this.#hooks.reserved());
  }
}
