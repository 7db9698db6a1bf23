import {
  type ApiKey,
  type ApiKeyListQuery,
  type AuditLogEntry,
  type AuditLogQuery,
  type BrowserEndReason,
  type CreateApiKeyInput,
  type CreatedApiKey,
  DEFAULT_PROJECT_ID,
  type DrainedNode,
  formatTimestamp,
  HEADERS,
  LOCAL_NODE_ID,
  MAX_API_KEYS,
  MAX_PROJECTS,
  NAME_PATTERN,
  type NodeListQuery,
  type Operation,
  type OrgLimits,
  type Page,
  type Project,
  type ProjectLimits,
  type ProjectListQuery,
  pageOf,
  type RotateApiKeyInput,
  type ServiceNode,
  type UpdateOrgLimitsInput,
  type UpdateProjectInput,
  type UpdateProjectLimitsInput,
} from '@x/types';
import type { Deployer } from '../apps/deployment-model.js';
import { isSignInBrowser } from '../browsers/browser-records.js';
import { CredentialProviderModel } from '../credentials/credential-provider-model.js';
import type {
  AuditStore,
  BrowserInstance,
  NodeDirectory,
  RecordStore,
  RecordStores,
  ServiceEngines,
  StoredApiKey,
  StoredLimit,
  StoredOrgSettings,
  StoredProject,
} from '../engines.js';
import { NameTaken, ORG_SCOPE, PROJECT_RECORD_KINDS } from '../engines.js';
import { createIdGenerator, type IdGenerator } from '../ids.js';
import { notFound } from '../messages.js';
import type { ModelLog, ModelSettings } from '../model-context.js';
import { silentLog } from '../model-context.js';
import { bearerOf, type Caller, type KeyGrant } from '../pipeline/auth.js';
import type { AnsweredCall, AuditedCall } from '../pipeline/handle-request.js';
import { namedPage } from '../records/named-page.js';
import { findByIdOrName, putNamed } from '../records/named-records.js';
import { ServiceError } from '../service-error.js';
import { ServiceModel } from '../service-model.js';
import { verifySessionJwt } from '../session-jwt.js';
import { keyDigest, maskKey, newApiKey } from './org-keys.js';
import { RefusalAudit } from './refusal-audit.js';

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

const DAY_MS = 86_400_000;

/** Most key digests remembered as recently used. */
const MAX_RECENT_KEYS = 1000;

/** How long the organization's defaults are trusted before they are read again, in ms. */
const SETTINGS_TTL_MS = 2000;

const NO_SETTINGS: StoredOrgSettings = {
  default_project_max_concurrent_sessions: null,
  default_project_max_concurrent_invocations: null,
};

const NO_LIMITS: StoredProject['limits'] = {
  max_concurrent_sessions: null,
  max_concurrent_invocations: null,
};

/** A limit as given (0 or null removes it; absent keeps it). */
function limitOf(given: number | null | undefined, kept: StoredLimit): StoredLimit {
  if (given === undefined) return kept;
  return given === null || given === 0 ? null : given;
}

const projectNotFound = (idOrName: string) =>
  new ServiceError('not_found', `No project "${idOrName}" (or it is archived).`);

const forbidden = (message: string) => new ServiceError('forbidden', message);

/**
 * The organization: its projects (each a wall around its own service model and records), its
 * API keys, its limits and its audit log. Every project's model shares the engines and the
 * node's cap on browsers; each sees only its own records, so another project's resource is not
 * found (404), never forbidden.
 */
export class Organization<I extends BrowserInstance> {
  readonly #options: OrganizationOptions<I>;
  readonly #clock: () => Date;
  readonly #nextId: IdGenerator;
  readonly #log: ModelLog;
  readonly #org: RecordStore;
  readonly #models = new Map<string, ServiceModel<I>>();
  #isDraining = false;
  /** Each project's limits as last read: the quota reads them at once. */
  readonly #limits = new Map<string, StoredProject['limits']>();
  #settings: StoredOrgSettings = NO_SETTINGS;
  #settingsReadAt = 0;
  #defaultMade: Promise<void> | undefined;
  readonly #providers: CredentialProviderModel;
  /** Digests of keys that worked lately on this node, oldest first (for connection budgets). */
  readonly #recentKeys = new Set<string>();
  /** Refused calls, audited at most once per key and minute, with their count. */
  readonly #refusals: RefusalAudit<AuditLogEntry>;

  constructor(options: OrganizationOptions<I>) {
    this.#options = options;
    this.#clock = options.clock ?? (() => new Date());
    this.#nextId = options.nextId ?? createIdGenerator();
    this.#log = options.log ?? silentLog;
    this.#org = options.stores.scope(ORG_SCOPE);
    this.#refusals = new RefusalAudit(
      (entry, count) => this.#options.audit.append({ ...entry, count }),
      () => this.#clock().getTime(),
      (error) => this.#log.error({ err: error }, 'a refused call could not be audited'),
    );
    this.#providers = new CredentialProviderModel({
      records: this.#org,
      client: options.engines.providers,
      secrets: options.engines.secrets,
      clock: this.#clock,
      nextId: this.#nextId,
      log: this.#log,
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
    model = new ServiceModel({
      engines: { ...this.#options.engines, records: this.#options.stores.scope(project) },
      settings: this.#options.settings,
      clock: this.#clock,
      nextId: this.#nextId,
      log: this.#options.log,
      project,
      org: this,
      quota: {
        nodeBrowsers: () => this.nodeBrowsers(),
        sessions: () => this.#effective(project, 'sessions'),
        invocations: () => this.#effective(project, 'invocations'),
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

  #effective(project: string, what: 'sessions' | 'invocations'): number | undefined {
    const own = this.#limits.get(project) ?? NO_LIMITS;
    const value =
      what === 'sessions'
        ? (own.max_concurrent_sessions ?? this.#settings.default_project_max_concurrent_sessions)
        : (own.max_concurrent_invocations ??
          this.#settings.default_project_max_concurrent_invocations);
    return value ?? undefined;
  }

  /** The live browser with this id, in whichever project runs it (session URLs name no project). */
  /**
   * A live browser a caller may reach by its id or its URLs: any but the service's own sign-in
   * browsers, which type credentials' values (a person reaches those through the flow's live view).
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
    await this.#ready();
    await this.#readSettings(true);
    let closed = 0;
    for (const project of await this.#org.projects.list()) {
      this.#limits.set(project.record.id, project.limits);
      closed += await this.#modelOf(project.record.id).recover(origin);
    }
    return closed;
  }

  /**
   * A cluster lost nodes: the sessions they ran (`isOf` picks them by id), in every project, are
   * marked ended (`node_lost`). Gives how many.
   */
  async endLostBrowsers(isOf: (sessionId: string) => boolean): Promise<number> {
    let ended = 0;
    for (const project of await this.#org.projects.list())
      ended += await this.#modelOf(project.record.id).browsers.endLost(isOf);
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
    for (const project of await this.#org.projects.list()) {
      const model = this.#modelOf(project.record.id);
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
    for (const project of await this.#org.projects.list())
      await this.#modelOf(project.record.id).pools.restore(origin);
  }

  /** Ends every browser this node runs, in every project, for `reason`. Gives how many. */
  async endAllBrowsers(reason: BrowserEndReason): Promise<number> {
    const counts = await Promise.all(
      [...this.#models.values()].map((model) => model.browsers.endAll(reason)),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  }

  /** The default project is in the store (made once, by whichever call comes first). */
  #ready(): Promise<void> {
    this.#defaultMade ??= this.#makeDefault().catch((error: unknown) => {
      this.#defaultMade = undefined; // the store may answer next time
      throw error;
    });
    return this.#defaultMade;
  }

  async #makeDefault(): Promise<void> {
    const existing = await this.#org.projects.get(DEFAULT_PROJECT_ID);
    if (!existing) {
      const now = formatTimestamp(this.#clock());
      await this.#org.projects
        .put(
          DEFAULT_PROJECT_ID,
          {
            record: {
              id: DEFAULT_PROJECT_ID,
              name: DEFAULT_PROJECT_ID,
              status: 'active',
              created_at: now,
              updated_at: now,
            },
            limits: NO_LIMITS,
          },
          { name: DEFAULT_PROJECT_ID },
        )
        .catch((error: unknown) => {
          // Another server on the same store made it first: one is enough.
          if (!(error instanceof NameTaken)) throw error;
        });
    }
  }

  /**
   * The organization's defaults (and the default project's limits), read again once they are
   * older than a moment (`force`: now): another server's change reaches this one within it.
   * A refresh the store cannot answer keeps the last ones: a call that reads no record of its
   * own (driving a live browser) goes on while the store is away.
   */
  async #readSettings(force = false): Promise<StoredOrgSettings> {
    const now = Date.now();
    if (force || now - this.#settingsReadAt > SETTINGS_TTL_MS) {
      try {
        this.#settings = (await this.#org.orgSettings.get('settings')) ?? NO_SETTINGS;
        // The default project's own limits too: a call that names no project reads no record.
        const fallback = await this.#org.projects.get(DEFAULT_PROJECT_ID);
        if (fallback) this.#limits.set(DEFAULT_PROJECT_ID, fallback.limits);
        this.#settingsReadAt = now;
      } catch (error) {
        if (force) throw error;
      }
    }
    return this.#settings;
  }

  /** Housekeeping in every project: idle browsers end. */
  sweep(): void {
    for (const model of this.#models.values()) model.sweep();
  }

  /** Shutdown: every project's pools stop, recordings are finalized, browsers end. */
  async close(): Promise<void> {
    await Promise.all([...this.#models.values()].map((model) => model.close()));
    await this.#refusals.flush();
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

  // ---- Nodes ----

  /** The nodes, by id: this one first-hand, the others as of their last heartbeat. */
  #nodes(): ServiceNode[] {
    const directory = this.#options.nodes;
    const self = directory?.self ?? LOCAL_NODE_ID;
    const own: ServiceNode = {
      id: self,
      url: null,
      state: this.#isDraining ? 'draining' : 'up',
      is_self: true,
      max_browsers: this.#options.settings.maxBrowsers,
      browsers: this.nodeBrowsers(),
    };
    const nodes = (directory?.members() ?? []).map(
      (member): ServiceNode =>
        member.id === self
          ? { ...own, url: member.url }
          : {
              id: member.id,
              url: member.url,
              state: member.state,
              is_self: false,
              max_browsers: member.capacity,
              browsers: member.running,
            },
    );
    if (!nodes.some((node) => node.is_self)) nodes.push(own);
    return nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** One page of the nodes, by id (an organization-wide key only). */
  pageOfNodes(caller: Caller, query: NodeListQuery): Page<ServiceNode> {
    this.#assertOrgWide(caller, 'list nodes');
    return namedPage(this.#nodes(), query);
  }

  /**
   * Drains node `id`, which must be this one (a cluster passes the call to its node), as
   * `drain` does, waiting for as long as the caller stays.
   */
  async drainNode(
    caller: Caller,
    id: string,
    waitSeconds: number,
    signal: AbortSignal,
  ): Promise<DrainedNode> {
    this.#assertOrgWide(caller, 'drain nodes');
    const node = this.#nodes().find((found) => found.id === id);
    if (!node) throw new ServiceError('not_found', `No node "${id}" in this service.`);
    if (!node.is_self) {
      if (node.state === 'lost') {
        throw new ServiceError('conflict', `Node ${id} is lost: it runs nothing to drain.`);
      }
      throw new ServiceError(
        'unavailable',
        `Node ${id} could not be reached from this node: ask it directly (${node.url}).`,
      );
    }
    const inUse = await this.drain(waitSeconds, signal);
    const drained = this.#nodes().find((found) => found.is_self) as ServiceNode;
    return { node: drained, browsers_in_use: inUse };
  }

  /** Browsers in use on this node, every project's: pools' idle ones left out. */
  busyBrowsers(): number {
    let count = 0;
    for (const model of this.#models.values()) count += model.browsers.busyCount();
    return count;
  }

  // ---- Who calls, and where ----

  /**
   * Who calls with a live session's jwt: a caller of that session's project that may act (the
   * jwt opens the browser's DevTools, which is more), when the jwt is this service's, for that
   * session, unexpired and of the DevTools scope; undefined otherwise.
   */
  async sessionCaller(sessionId: string, jwt: string): Promise<Caller | undefined> {
    const found = this.findReachableBrowser(sessionId);
    if (!found) return undefined;
    const { settings, project } = found.model.context;
    const now = Math.floor(this.#clock().getTime() / 1000);
    if (!verifySessionJwt(settings.jwtSecret, jwt, sessionId, now)) return undefined;
    return {
      token: jwt,
      isReadOnly: false,
      keyId: `jwt_${sessionId}`,
      keyName: `session ${sessionId}`,
      strategy: 'session_jwt',
      project,
    };
  }

  /** The API key a token is, if one works now (not deleted, not expired): read from the store. */
  async grantOf(token: string): Promise<KeyGrant | undefined> {
    const digest = keyDigest(token);
    const stored = await this.#org.apiKeys.byName(digest);
    // A minted key works while the key that deployed its code does (or the key it was rotated
    // to, and so on).
    const isParentGone =
      stored?.parentKey !== undefined && !(await this.#keyWorks(stored.parentKey));
    if (!stored || !this.#works(stored) || isParentGone) {
      this.#recentKeys.delete(digest);
      return undefined;
    }
    this.#recentKeys.add(digest);
    if (this.#recentKeys.size > MAX_RECENT_KEYS) {
      this.#recentKeys.delete(this.#recentKeys.values().next().value as string);
    }
    return {
      keyId: stored.record.id,
      keyName: stored.record.name,
      project: stored.record.project_id ?? undefined,
      isReadOnly: stored.record.read_only,
      ...(stored.mintedBy !== undefined && { isMinted: true }),
    };
  }

  /** Whether the key `id`, or the one it was rotated to (at most 16 rotations on), works now. */
  async #keyWorks(id: string): Promise<boolean> {
    let next: string | undefined = id;
    for (let hops = 0; next !== undefined && hops < 16; hops++) {
      const key = await this.#org.apiKeys.get(next);
      if (this.#works(key)) return true;
      next = key?.rotatedTo;
    }
    return false;
  }

  /** Whether a key works now: not deleted, not expired. */
  #works(stored: StoredApiKey | undefined): boolean {
    if (!stored || stored.record.deleted_at !== null) return false;
    const expiresAt = stored.record.expires_at;
    return expiresAt === null || Date.parse(expiresAt) > this.#clock().getTime();
  }

  /** Whether a request carries an API key that works now (read from the store). */
  async isKey(request: Request): Promise<boolean> {
    const token = bearerOf(request.headers.get(HEADERS.authorization) ?? '');
    return token !== undefined && (await this.grantOf(token)) !== undefined;
  }

  /**
   * Whether an Authorization header carries a key that worked in a recent call on this node: for
   * deciding at once, before any call, which connection budget a connection counts against.
   * Never a grant: every call still looks its key up.
   */
  isRecentKey(authorization: string): boolean {
    const token = bearerOf(authorization);
    return token !== undefined && this.#recentKeys.has(keyDigest(token));
  }

  /**
   * The project a call acts in: the one its header names (id or name), else its key's, else the
   * default. A project key naming another project is 403 (whether or not that one exists); an
   * unknown or archived project is 404.
   */
  async projectOf(caller: Caller, header: string | undefined): Promise<string> {
    if (header !== undefined && !NAME_PATTERN.test(header)) {
      throw new ServiceError(
        'bad_request',
        `${HEADERS.project} must be a project id or name ([A-Za-z0-9._-], 1–255 characters).`,
      );
    }
    const named = header ?? caller.project ?? DEFAULT_PROJECT_ID;
    // The default project is always there and never archived: an unnamed call reads nothing.
    if (named === DEFAULT_PROJECT_ID && caller.project === undefined) {
      await this.#readSettings();
      return DEFAULT_PROJECT_ID;
    }
    await this.#ready();
    const project = await findByIdOrName(this.#org.projects, named);
    // A project key learns nothing of other projects: whether one exists or is archived, 403.
    if (caller.project !== undefined && project?.record.id !== caller.project) {
      throw forbidden(`This key reaches project ${caller.project} only.`);
    }
    if (project?.record.status !== 'active') throw projectNotFound(named);
    this.#limits.set(project.record.id, project.limits);
    await this.#readSettings();
    this.#modelOf(project.record.id);
    return project.record.id;
  }

  // ---- Projects ----

  #assertOrgWide(caller: Caller, what: string): void {
    if (caller.isMinted === true)
      throw forbidden(`A key minted for deployed code may not ${what}.`);
    if (caller.project !== undefined) {
      throw forbidden(`A project's key may not ${what}; that takes an organization-wide key.`);
    }
  }

  /** The organization's credential providers, as the service's own sign-ins read them. */
  get providers(): CredentialProviderModel {
    return this.#providers;
  }

  /**
   * The organization's credential providers. Their records are the organization's to read; a
   * change, or what is in them (vaults and items), takes a key of the whole organization: they
   * serve every project, and hold other projects' logins.
   */
  credentialProviders(
    caller: Caller,
    reach: 'records' | 'change' | 'contents' = 'records',
  ): CredentialProviderModel {
    if (reach === 'change') this.#assertOrgWide(caller, 'change credential providers');
    if (reach === 'contents')
      this.#assertOrgWide(caller, "read a credential provider's vaults and items");
    return this.#providers;
  }

  /** A project by id or name, as `caller` may see it: another project of a project key is 404. */
  async #visible(caller: Caller, idOrName: string): Promise<StoredProject> {
    await this.#ready();
    const found = await findByIdOrName(this.#org.projects, idOrName);
    if (!found || (caller.project !== undefined && found.record.id !== caller.project)) {
      throw new ServiceError('not_found', `No project "${idOrName}".`);
    }
    return found;
  }

  async createProject(caller: Caller, name: string): Promise<Project> {
    this.#assertOrgWide(caller, 'create projects');
    await this.#ready();
    const projects = await this.#org.projects.list();
    if (projects.length >= MAX_PROJECTS) {
      throw new ServiceError('conflict', `This server keeps at most ${MAX_PROJECTS} projects.`);
    }
    if (projects.some((project) => project.record.name === name)) {
      throw new ServiceError('conflict', `A project named "${name}" already exists.`);
    }
    const now = formatTimestamp(this.#clock());
    const record: Project = {
      id: this.#nextId('proj'),
      name,
      status: 'active',
      created_at: now,
      updated_at: now,
    };
    await putNamed(this.#org.projects, record.id, { record, limits: NO_LIMITS }, name, 'project');
    this.#limits.set(record.id, NO_LIMITS);
    this.#modelOf(record.id);
    return record;
  }

  async pageOfProjects(caller: Caller, query: ProjectListQuery): Promise<Page<Project>> {
    await this.#ready();
    const all = (await this.#org.projects.list())
      .map((project) => project.record)
      .filter((record) => caller.project === undefined || record.id === caller.project);
    return namedPage(all, query);
  }

  async getProject(caller: Caller, idOrName: string): Promise<Project> {
    return (await this.#visible(caller, idOrName)).record;
  }

  async updateProject(
    caller: Caller,
    idOrName: string,
    body: UpdateProjectInput,
  ): Promise<Project> {
    const found = await this.#visible(caller, idOrName);
    if (body.status !== undefined && body.status !== found.record.status) {
      this.#assertOrgWide(caller, 'archive or restore a project');
      if (found.record.id === DEFAULT_PROJECT_ID) {
        throw new ServiceError(
          'conflict',
          'The default project cannot be archived: calls without a project act in it.',
        );
      }
    }
    const record: Project = {
      ...found.record,
      name: body.name ?? found.record.name,
      status: body.status ?? found.record.status,
      updated_at: formatTimestamp(this.#clock()),
    };
    await putNamed(this.#org.projects, record.id, { ...found, record }, record.name, 'project');
    return record;
  }

  async deleteProject(caller: Caller, idOrName: string): Promise<void> {
    this.#assertOrgWide(caller, 'delete projects');
    const found = await this.#visible(caller, idOrName);
    const { id } = found.record;
    if (id === DEFAULT_PROJECT_ID) {
      throw new ServiceError(
        'conflict',
        'The default project cannot be deleted: calls without a project act in it (it is also the last project that always remains).',
      );
    }
    // Closed to new calls while it is looked over, so none makes something in it meanwhile.
    const closing = { ...found, record: { ...found.record, status: 'archived' as const } };
    if (found.record.status === 'active') await this.#org.projects.put(id, closing);
    const held = await this.#holdings(id);
    if (held.length > 0) {
      if (found.record.status === 'active') await this.#org.projects.put(id, found);
      throw new ServiceError(
        'conflict',
        `Project "${idOrName}" still holds ${held.join(', ')}: delete them first.`,
      );
    }
    const model = this.#models.get(id);
    await this.#org.projects.delete(id);
    // Its keys reach nothing now: they stop, as a deleted key does.
    for (const stored of await this.#org.apiKeys.list()) {
      if (stored.record.project_id === id && stored.record.deleted_at === null) {
        await this.#retire(stored, this.#clock());
      }
    }
    this.#models.delete(id);
    this.#limits.delete(id);
    await model?.close();
    // What is left is history (ended sessions, ended invocations, replays' records): it goes too.
    const scope = this.#options.stores.scope(id);
    for (const kind of PROJECT_RECORD_KINDS) {
      const table = scope[kind];
      for (const record of await table.list()) {
        await table.delete(idOf(record));
      }
    }
  }

  /** What a project still holds that stops its deletion, in words. */
  async #holdings(project: string): Promise<string[]> {
    const scope = this.#options.stores.scope(project);
    const live = this.#models.get(project)?.browsers.count() ?? 0;
    const open = (await scope.browsers.list({ isOpen: true })).length;
    const running = (await scope.invocations.list()).filter(
      (invocation) => invocation.status === 'running',
    ).length;
    const counts: [number, string][] = [
      [Math.max(live, open), 'browsers'],
      [(await scope.pools.list()).length, 'pools'],
      [(await scope.extensions.list()).length, 'extensions'],
      [(await scope.profiles.list()).length, 'profiles'],
      [(await scope.proxies.list()).length, 'proxies'],
      [running, 'running invocations'],
      [(await scope.deployments.list({ isOpen: true })).length, 'deployments (delete them first)'],
    ];
    return counts.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
  }

  // ---- Limits ----

  async projectLimits(caller: Caller, idOrName: string): Promise<ProjectLimits> {
    return { ...(await this.#visible(caller, idOrName)).limits };
  }

  async updateProjectLimits(
    caller: Caller,
    idOrName: string,
    body: UpdateProjectLimitsInput,
  ): Promise<ProjectLimits> {
    this.#assertOrgWide(caller, 'change limits');
    const found = await this.#visible(caller, idOrName);
    const limits = {
      max_concurrent_sessions: limitOf(
        body.max_concurrent_sessions,
        found.limits.max_concurrent_sessions,
      ),
      max_concurrent_invocations: limitOf(
        body.max_concurrent_invocations,
        found.limits.max_concurrent_invocations,
      ),
    };
    this.#assertWithinServer(limits.max_concurrent_sessions, 'max_concurrent_sessions');
    await this.#org.projects.put(found.record.id, { ...found, limits });
    this.#limits.set(found.record.id, limits);
    return { ...limits };
  }

  #assertWithinServer(value: StoredLimit, field: string): void {
    const { maxBrowsers } = this.#options.settings;
    if (value !== null && value > maxBrowsers) {
      throw new ServiceError(
        'bad_request',
        `${field} may not exceed the server's own cap of ${maxBrowsers} browsers.`,
        {
          details: [{ code: 'invalid_input', message: `body.${field}: must be <= ${maxBrowsers}` }],
        },
      );
    }
  }

  async orgLimits(): Promise<OrgLimits> {
    const settings = await this.#readSettings(true);
    return { max_concurrent_sessions: this.#options.settings.maxBrowsers, ...settings };
  }

  async updateOrgLimits(caller: Caller, body: UpdateOrgLimitsInput): Promise<OrgLimits> {
    this.#assertOrgWide(caller, 'change limits');
    const kept = await this.#readSettings(true);
    const settings: StoredOrgSettings = {
      default_project_max_concurrent_sessions: limitOf(
        body.default_project_max_concurrent_sessions,
        kept.default_project_max_concurrent_sessions,
      ),
      default_project_max_concurrent_invocations: limitOf(
        body.default_project_max_concurrent_invocations,
        kept.default_project_max_concurrent_invocations,
      ),
    };
    this.#assertWithinServer(
      settings.default_project_max_concurrent_sessions,
      'default_project_max_concurrent_sessions',
    );
    await this.#org.orgSettings.put('settings', settings);
    this.#settings = settings;
    this.#settingsReadAt = Date.now();
    return { max_concurrent_sessions: this.#options.settings.maxBrowsers, ...settings };
  }

  // ---- API keys ----

  async #answerKey(stored: StoredApiKey): Promise<ApiKey> {
    const project =
      stored.record.project_id === null
        ? undefined
        : await this.#org.projects.get(stored.record.project_id);
    return { ...stored.record, project_name: project?.record.name ?? null };
  }

  async #storeKey(
    fields: Omit<ApiKey, 'id' | 'masked_key' | 'created_at' | 'deleted_at' | 'project_name'>,
    minted?: { readonly mintedBy: string; readonly parentKey: string | undefined },
  ): Promise<CreatedApiKey> {
    // Minted keys past their end (a run the server did not see end) go first, for good.
    const all: StoredApiKey[] = [];
    for (const stored of await this.#org.apiKeys.list()) {
      if (stored.mintedBy !== undefined && !this.#works(stored))
        await this.#org.apiKeys.delete(stored.record.id);
      else all.push(stored);
    }
    const deleted = all.filter((stored) => stored.record.deleted_at !== null);
    if (all.length - deleted.length >= MAX_API_KEYS) {
      throw new ServiceError('conflict', `This server keeps at most ${MAX_API_KEYS} API keys.`);
    }
    // Deleted keys are kept for the record, but never more than the live ones may be: the
    // oldest go first.
    for (const stored of deleted.slice(0, Math.max(0, all.length + 1 - MAX_API_KEYS))) {
      await this.#org.apiKeys.delete(stored.record.id);
    }
    const key = newApiKey();
    const digest = keyDigest(key);
    const record: StoredApiKey['record'] = {
      id: this.#nextId('key'),
      name: fields.name,
      masked_key: maskKey(key),
      project_id: fields.project_id,
      read_only: fields.read_only,
      created_at: formatTimestamp(this.#clock()),
      expires_at: fields.expires_at,
      deleted_at: null,
    };
    const stored: StoredApiKey = {
      record,
      digest,
      ...(minted && { mintedBy: minted.mintedBy }),
      ...(minted?.parentKey !== undefined && { parentKey: minted.parentKey }),
    };
    await this.#org.apiKeys.put(record.id, stored, { name: digest });
    return { ...(await this.#answerKey(stored)), key };
  }

  #expiry(days: number | null | undefined): string | null {
    if (days === undefined || days === null) return null;
    return formatTimestamp(new Date(this.#clock().getTime() + days * DAY_MS));
  }

  async createKey(caller: Caller, body: CreateApiKeyInput): Promise<CreatedApiKey> {
    this.#assertOrgWide(caller, 'manage API keys');
    let project: string | null = null;
    if (body.project_id !== undefined && body.project_id !== null) {
      // The default project may not be in the store yet: a key for it is made all the same.
      await this.#ready();
      const found = await findByIdOrName(this.#org.projects, body.project_id);
      if (!found) throw new ServiceError('not_found', `No project "${body.project_id}".`);
      project = found.record.id;
    }
    return this.#storeKey({
      name: body.name,
      project_id: project,
      read_only: body.read_only ?? false,
      expires_at: this.#expiry(body.days_to_expire),
    });
  }

  async #key(id: string, includeDeleted = false): Promise<StoredApiKey> {
    const stored = await this.#org.apiKeys.get(id);
    if (!stored || (stored.record.deleted_at !== null && !includeDeleted)) {
      throw new ServiceError('not_found', `No API key "${id}".`);
    }
    return stored;
  }

  async pageOfKeys(caller: Caller, query: ApiKeyListQuery): Promise<Page<ApiKey>> {
    this.#assertOrgWide(caller, 'list API keys');
    const needle = query.query?.toLowerCase();
    const keys = await Promise.all(
      (await this.#org.apiKeys.list())
        .filter(({ record }) => {
          const isDeleted = record.deleted_at !== null;
          if (query.status === 'active' && isDeleted) return false;
          if (query.status === 'deleted' && !isDeleted) return false;
          return query.name === undefined || record.name === query.name;
        })
        .map((stored) => this.#answerKey(stored)),
    );
    const matching = keys
      .filter(
        (key) =>
          needle === undefined ||
          [key.id, key.name, key.masked_key, key.project_id ?? '', key.project_name ?? ''].some(
            (field) => field.toLowerCase().includes(needle),
          ),
      )
      .reverse();
    return pageOf(matching, query.offset, query.limit);
  }

  async getKey(caller: Caller, id: string, includeDeleted: boolean): Promise<ApiKey> {
    this.#assertOrgWide(caller, 'read API keys');
    return this.#answerKey(await this.#key(id, includeDeleted));
  }

  async updateKey(caller: Caller, id: string, name: string): Promise<ApiKey> {
    this.#assertOrgWide(caller, 'manage API keys');
    const stored = await this.#key(id);
    const next = { ...stored, record: { ...stored.record, name } };
    await this.#org.apiKeys.put(id, next);
    return this.#answerKey(next);
  }

  async deleteKey(caller: Caller, id: string): Promise<void> {
    this.#assertOrgWide(caller, 'manage API keys');
    if (caller.keyId === id) {
      throw new ServiceError('conflict', 'A key cannot delete itself: delete it with another key.');
    }
    const stored = await this.#key(id);
    await this.#retire(stored, this.#clock());
  }

  /**
   * A key of its own for a deployment's code, scoped to the deployment's project: what its code
   * calls the API with. 409 when the server holds as many keys as it may.
   */
  async mintDeploymentKey(
    project: string,
    purpose: string,
    deployer: Deployer | undefined,
    expiresAt?: Date,
  ): Promise<{ readonly id: string; readonly key: string }> {
    const created = await this.#storeKey(
      {
        name: purpose,
        project_id: project,
        read_only: false,
        expires_at: expiresAt === undefined ? null : formatTimestamp(expiresAt),
      },
      { mintedBy: deployer?.keyId ?? 'service', parentKey: deployer?.parentKey },
    );
    return { id: created.id, key: created.key };
  }

  /** A key minted for a run goes with it: nothing is kept of it. */
  async retireDeploymentKey(id: string): Promise<void> {
    const stored = await this.#org.apiKeys.get(id);
    if (stored?.mintedBy !== undefined) await this.#org.apiKeys.delete(id);
    else if (stored && stored.record.deleted_at === null) await this.#retire(stored, this.#clock());
  }

  /** A key stops at `when`: at once (deleted now), or later (a rotation's grace period). */
  async #retire(stored: StoredApiKey, when: Date): Promise<void> {
    const now = this.#clock();
    const record =
      when.getTime() <= now.getTime()
        ? { ...stored.record, deleted_at: formatTimestamp(now) }
        : {
            ...stored.record,
            expires_at:
              stored.record.expires_at !== null &&
              Date.parse(stored.record.expires_at) < when.getTime()
                ? stored.record.expires_at
                : formatTimestamp(when),
          };
    await this.#org.apiKeys.put(stored.record.id, { ...stored, record });
  }

  async rotateKey(caller: Caller, id: string, body: RotateApiKeyInput): Promise<CreatedApiKey> {
    this.#assertOrgWide(caller, 'manage API keys');
    const stored = await this.#key(id);
    if (stored.mintedBy !== undefined)
      throw new ServiceError(
        'conflict',
        'A key minted for deployed code is not rotated: it ends with the run it was made for.',
      );
    const { record } = stored;
    let expiresAt: string | null;
    if (body?.days_to_expire !== undefined) expiresAt = this.#expiry(body.days_to_expire);
    else if (record.expires_at === null) expiresAt = null;
    else {
      const lifetime = Date.parse(record.expires_at) - Date.parse(record.created_at);
      expiresAt = formatTimestamp(new Date(this.#clock().getTime() + lifetime));
    }
    const created = await this.#storeKey({
      name: record.name,
      project_id: record.project_id,
      read_only: record.read_only,
      expires_at: expiresAt,
    });
    const grace = (body?.expire_in_days ?? 0) * DAY_MS;
    // The keys minted by the old key's deploys follow it to the new one.
    await this.#retire(
      { ...stored, rotatedTo: created.id },
      new Date(this.#clock().getTime() + grace),
    );
    return created;
  }

  // ---- Telemetry ----

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

  // ---- The audit log ----

  /** Keeps one write in the audit log. */
  async record(call: AuditedCall): Promise<void> {
    const entry: AuditLogEntry = {
      id: this.#nextId('aud'),
      timestamp: formatTimestamp(call.at),
      key_id: call.caller.keyId,
      key_name: call.caller.keyName,
      auth_strategy: call.caller.strategy,
      project_id: call.project ?? null,
      method: call.method,
      path: call.path,
      route: call.operation,
      status: call.status,
      client_ip: call.clientIp,
      user_agent: call.userAgent.slice(0, 512),
      duration_ms: call.durationMs,
    };
    // A refused call changed nothing: its key's refusals are kept once a minute, counted.
    if (call.status === 403) await this.#refusals.refused(call.caller.keyId, entry);
    else await this.#options.audit.append(entry);
  }

  /**
   * One page of the audit log, newest first; its answer's `X-Next-Page-Token` goes on from its
   * last entry. A project key reads its project's entries only.
   */
  async pageOfAudit(
    caller: Caller,
    query: AuditLogQuery,
  ): Promise<{ items: AuditLogEntry[]; headers: Record<string, string> }> {
    const after = query.page_token === undefined ? undefined : parsePageToken(query.page_token);
    const items = await this.#options.audit.page({
      start: new Date(query.start),
      end: new Date(query.end),
      method: query.method,
      search: query.search,
      project: caller.project,
      after,
      limit: query.limit + 1,
    });
    const hasMore = items.length > query.limit;
    const page = items.slice(0, query.limit);
    const headers: Record<string, string> = { 'x-has-more': String(hasMore) };
    const last = page.at(-1);
    if (hasMore && last) headers[HEADERS.nextPageToken] = pageToken(last);
    return { items: page, headers };
  }

  /** Forgets audit entries older than `days`, and deleted keys as old. */
  async prune(days: number): Promise<number> {
    const before = new Date(this.#clock().getTime() - days * DAY_MS);
    const gone = await this.#options.audit.prune(before);
    for (const stored of await this.#org.apiKeys.list()) {
      const { deleted_at: deletedAt } = stored.record;
      if (deletedAt !== null && Date.parse(deletedAt) < before.getTime()) {
        await this.#org.apiKeys.delete(stored.record.id);
      }
    }
    if (gone > 0) this.#log.info({ count: gone }, 'audit log entries pruned');
    return gone;
  }
}

function idOf(record: unknown): string {
  const value = record as {
    id?: string;
    session_id?: string;
    replay_id?: string;
    record?: { id: string };
  };
  return value.session_id ?? value.replay_id ?? value.id ?? value.record?.id ?? '';
}

/** A page token: the last entry's time and id, opaque to callers. */
function pageToken(entry: Pick<AuditLogEntry, 'timestamp' | 'id'>): string {
  return Buffer.from(`${entry.timestamp}|${entry.id}`).toString('base64url');
}

function parsePageToken(token: string): { timestamp: string; id: string } {
  const [timestamp, id] = Buffer.from(token, 'base64url').toString().split('|');
  if (timestamp === undefined || id === undefined || Number.isNaN(Date.parse(timestamp))) {
    throw new ServiceError('bad_request', 'page_token is not one a page of this list gave.', {
      details: [{ code: 'invalid_input', message: 'query.page_token: not a token a page gave' }],
    });
  }
  return { timestamp, id };
}
