import { type BrowserEndReason, DEFAULT_PROJECT_ID, type Operation } from '@x/types';
import { isSignInBrowser } from '../browsers/browser-records.js';
import { CredentialProviderModel } from '../credentials/credential-provider-model.js';
import type { BrowserInstance, NodeDirectory } from '../engines.js';
import { createIdGenerator, type IdGenerator } from '../ids.js';
import { notFound } from '../messages.js';
import type { ModelLog, ModelSettings } from '../model-context.js';
import { silentLog } from '../model-context.js';
import type { AnsweredCall } from '../pipeline/handle-request.js';
import type { AuditStore, RecordStores } from '../records/record-store.js';
import { ORG_SCOPE } from '../records/record-store.js';
import type { ServiceEngines } from '../service-engines.js';
import { ServiceModel } from '../service-model.js';
import { ApiKeys } from './api-keys.js';
import { AuditLog } from './audit-log.js';
import { Callers } from './callers.js';
import { Nodes } from './nodes.js';
import type { OrgContext } from './org-context.js';
import { Projects } from './projects.js';

/** What an organization is made of. */
export interface OrganizationOptions<I extends BrowserInstance> {
  /** Every engine but the records, which each project gets from `stores`. */
  readonly engines: Omit<ServiceEngines<I>, 'records'>;
  readonly stores: RecordStores;
  readonly audit: AuditStore;
  readonly settings: ModelSettings;
  readonly clock?: () => Date;
  readonly nextId?: IdGenerator;
  readonly log?: ModelLog;
  /** The cluster's nodes; none for a server alone, which is its only node. */
  readonly nodes?: NodeDirectory;
}

/**
 * The organization: the registry of its projects' service models (each a wall around its own
 * records) and their lifecycle on this node, and its parts, one per job: `projects` (and their
 * limits), `keys`, `audit`, `callers` (who calls, and where), `nodes` and `providers`. Every
 * project's model shares the engines and the node's cap on browsers; each sees only its own
 * records, so another project's resource is not found (404), never forbidden.
 */
export class Organization<I extends BrowserInstance> {
  readonly projects: Projects;
  readonly keys: ApiKeys;
  readonly audit: AuditLog;
  readonly callers: Callers;
  readonly nodes: Nodes;
  /** The organization's credential providers, as the service's own sign-ins read them. */
  readonly providers: CredentialProviderModel;
  readonly #options: OrganizationOptions<I>;
  readonly #context: OrgContext;
  readonly #models = new Map<string, ServiceModel<I>>();
  #isDraining = false;

  constructor(options: OrganizationOptions<I>) {
    this.#options = options;
    const context: OrgContext = {
      records: options.stores.scope(ORG_SCOPE),
      stores: options.stores,
      audit: options.audit,
      settings: options.settings,
      clock: options.clock ?? (() => new Date()),
      nextId: options.nextId ?? createIdGenerator(),
      log: options.log ?? silentLog,
    };
    this.#context = context;
    this.keys = new ApiKeys(context, () => this.projects.ready());
    this.projects = new Projects(
      context,
      {
        open: (project) => void this.#modelOf(project),
        liveBrowsers: (project) => this.#models.get(project)?.browsers.count() ?? 0,
        drop: async (project) => {
          const model = this.#models.get(project);
          this.#models.delete(project);
          await model?.close();
        },
      },
      () => this.keys,
    );
    this.audit = new AuditLog(context, this.keys);
    this.callers = new Callers(context, this.keys, this.projects, (sessionId) => {
      const found = this.findReachableBrowser(sessionId);
      return (
        found && {
          project: found.model.context.project,
          jwtSecret: found.model.context.settings.jwtSecret,
        }
      );
    });
    this.nodes = new Nodes(context, options.nodes, {
      isDraining: () => this.#isDraining,
      browsers: () => this.nodeBrowsers(),
      drain: (waitSeconds, signal) => this.drain(waitSeconds, signal),
    });
    this.providers = new CredentialProviderModel({
      records: context.records,
      client: options.engines.providers,
      secrets: options.engines.secrets,
      clock: context.clock,
      nextId: context.nextId,
      log: context.log,
    });
    this.#modelOf(DEFAULT_PROJECT_ID);
  }

  /** The default project's model: a request without a project acts in it. */
  get defaultModel(): ServiceModel<I> {
    return this.#modelOf(DEFAULT_PROJECT_ID);
  }

  /** Every project's model this node has made. */
  models(): ServiceModel<I>[] {
    return [...this.#models.values()];
  }

  /** A project's model, made when first needed (the project exists: the caller checked). */
  model(project: string): ServiceModel<I> {
    return this.#modelOf(project);
  }

  #modelOf(project: string): ServiceModel<I> {
    let model = this.#models.get(project);
    if (model) return model;
    const context = this.#context;
    model = new ServiceModel({
      engines: { ...this.#options.engines, records: context.stores.scope(project) },
      settings: context.settings,
      clock: context.clock,
      nextId: context.nextId,
      log: this.#options.log,
      project,
      providers: () => this.providers,
      deploymentKeys: {
        mint: (purpose, deployer, expiresAt) =>
          this.keys.mintDeploymentKey(project, purpose, deployer, expiresAt),
        retire: (id) => this.keys.retireDeploymentKey(id),
      },
      quota: {
        nodeBrowsers: () => this.nodeBrowsers(),
        sessions: () => this.projects.effective(project, 'sessions'),
        invocations: () => this.projects.effective(project, 'invocations'),
        projectsHere: () => this.#models.size,
      },
    });
    this.#models.set(project, model);
    if (this.#isDraining) model.drain();
    return model;
  }

  /** Browsers running or starting on this node, every project's. */
  nodeBrowsers(): number {
    let count = 0;
    for (const model of this.#models.values()) count += model.browsers.count();
    return count;
  }

  /** Browsers in use on this node, every project's: pools' idle ones left out. */
  busyBrowsers(): number {
    let count = 0;
    for (const model of this.#models.values()) count += model.browsers.busyCount();
    return count;
  }

  /**
   * A live browser a caller may reach by its id or its URLs (session URLs name no project): any
   * but the service's own sign-in browsers, which type credentials' values (a person reaches
   * those through the flow's live view).
   */
  findReachableBrowser(id: string) {
    const found = this.findBrowser(id);
    return found && !isSignInBrowser(found.entry.record) ? found : undefined;
  }

  /** 404 for a call naming one of the service's own sign-in browsers in its path. */
  assertReachable(operation: Operation, params: Readonly<Record<string, string>>): void {
    if (!operation.path.startsWith('/browsers/{id}')) return;
    const id = params.id;
    if (id === undefined) return;
    const found = this.findBrowser(id);
    if (found && isSignInBrowser(found.entry.record)) throw notFound('browser session', id);
  }

  /** The live browser with this id, in whichever project runs it. */
  findBrowser(id: string) {
    for (const model of this.#models.values()) {
      const entry = model.browsers.peek(id);
      if (entry) return { model, entry };
    }
    return undefined;
  }

  /** The model of the project a live browser belongs to; the default project's for none. */
  liveModelOf(id: string): ServiceModel<I> {
    return this.findBrowser(id)?.model ?? this.defaultModel;
  }

  /**
   * The model of the project a browser belongs to, live or ended (a page of a replay names a
   * browser that ended): the default project's when no project knows it.
   */
  async modelOfBrowser(id: string): Promise<ServiceModel<I>> {
    if (id === '') return this.defaultModel;
    const live = this.findBrowser(id);
    if (live) return live.model;
    for (const model of this.#models.values()) {
      if (await model.context.engines.records.browsers.get(id)) return model;
    }
    return this.defaultModel;
  }

  /**
   * At start: the default project made if missing, every project's model made and what an
   * earlier run left open closed; pools fill again. Gives how many browsers were closed.
   */
  async start(origin: string): Promise<number> {
    let closed = 0;
    for (const project of await this.projects.load())
      closed += await this.#modelOf(project).recover(origin);
    return closed;
  }

  /**
   * A cluster lost nodes: the sessions they ran (`isOf` picks them by id), in every project, are
   * marked ended (`node_lost`). Gives how many.
   */
  async endLostBrowsers(isOf: (sessionId: string) => boolean): Promise<number> {
    let ended = 0;
    for (const project of await this.projects.ids())
      ended += await this.#modelOf(project).browsers.endLost(isOf);
    return ended;
  }

  /**
   * Nodes of a cluster are no more: the pools here let go of the browsers they held there
   * (`isOf` picks them by id), in every project, and fill again.
   */
  forgetPoolBrowsers(isOf: (sessionId: string) => boolean): void {
    for (const model of this.#models.values()) model.pools.forgetLost(isOf);
  }

  /**
   * A cluster lost nodes: the invocations they ran (`isOf` picks them by id), in every project,
   * fail (`The node that ran the invocation was lost.`), and so do the deploys under way there.
   * Gives how many invocations.
   */
  async endLostInvocations(isOf: (id: string) => boolean): Promise<number> {
    let ended = 0;
    for (const project of await this.projects.ids()) {
      const model = this.#modelOf(project);
      await model.deployments.endLost(isOf);
      ended += await model.invocations.endLost(isOf);
    }
    return ended;
  }

  /**
   * A cluster moved pools between nodes: every project takes the pools it now holds here and
   * lets go of those it holds no more (`ModelSettings.owns` says which).
   */
  async restorePools(origin: string): Promise<void> {
    for (const project of await this.projects.ids())
      await this.#modelOf(project).pools.restore(origin);
  }

  /** Ends every browser this node runs, in every project, for `reason`. Gives how many. */
  async endAllBrowsers(reason: BrowserEndReason): Promise<number> {
    const counts = await Promise.all(
      [...this.#models.values()].map((model) => model.browsers.endAll(reason)),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  }

  /** Housekeeping in every project: idle browsers end. */
  sweep(): void {
    for (const model of this.#models.values()) model.sweep();
  }

  /** Shutdown: every project's pools stop, recordings are finalized, browsers end. */
  async close(): Promise<void> {
    await Promise.all([...this.#models.values()].map((model) => model.close()));
    await this.audit.flush();
  }

  /**
   * Drains this node (a deploy stops it; SIGTERM or a call asked): no new browser starts here in
   * any project, and a cluster places none here; what is in use goes on until it ends or the
   * server closes. Waits up to `waitSeconds` (or until `signal` aborts) for the browsers in use
   * here to end, and tells how many still are. Draining again changes nothing and waits again.
   */
  async drain(waitSeconds: number, signal?: AbortSignal): Promise<number> {
    // The others hear first (the cluster's own placements leave this node out at once): the
    // pools that lose their warm browsers here start the new ones elsewhere.
    const told = this.#options.nodes?.drain();
    this.#isDraining = true;
    for (const model of this.#models.values()) model.drain();
    await told;
    const until = Date.now() + waitSeconds * 1000;
    while (this.busyBrowsers() > 0 && Date.now() < until && !signal?.aborted) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, until - Date.now())));
    }
    return this.busyBrowsers();
  }

  /**
   * A call on a live session's own endpoints (`/browsers/{id}/…`: its computer, files,
   * processes, curl, …), answered: an `api_call` event of its `control` telemetry. Reading
   * telemetry is not one.
   */
  answered(call: AnsweredCall): void {
    const { operation, params } = call;
    if (!operation.path.startsWith('/browsers/{id}/')) return;
    if (operation.name.startsWith('browsers.telemetry.')) return;
    // Only a caller who reaches the session's project: a refused key of another project (its
    // project not yet known, or another) leaves nothing in the session's telemetry.
    const found = this.findBrowser(params.id ?? '');
    if (!found || call.project === undefined || found.model.context.project !== call.project)
      return;
    found.entry.telemetry.record({
      category: 'control',
      type: 'api_call',
      source: { kind: 'kernel_api' },
      data: {
        operation_id: operation.name,
        request_id: call.requestId,
        status: call.status,
        duration_ms: call.durationMs,
      },
    });
  }
}
