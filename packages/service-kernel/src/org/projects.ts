import {
  DEFAULT_PROJECT_ID,
  formatTimestamp,
  HEADERS,
  MAX_PROJECTS,
  NAME_PATTERN,
  type OrgLimits,
  type Page,
  type Project,
  type ProjectLimits,
  type ProjectListQuery,
  type UpdateOrgLimitsInput,
  type UpdateProjectInput,
  type UpdateProjectLimitsInput,
} from '@x/types';
import type { Caller } from '../pipeline/auth.js';
import { namedPage } from '../records/named-page.js';
import { findByIdOrName, putNamed } from '../records/named-records.js';
import {
  NameTaken,
  PROJECT_RECORD_KINDS,
  type StoredLimit,
  type StoredOrgSettings,
  type StoredProject,
} from '../records/record-store.js';
import { ServiceError } from '../service-error.js';
import type { ApiKeys } from './api-keys.js';
import { assertOrgWide, forbidden, type OrgContext } from './org-context.js';

/** What the projects need of the models this node runs, one per project. */
export interface ProjectModels {
  /** Makes the project's model when this node has none yet. */
  open(project: string): void;
  /** Browsers the project runs on this node. */
  liveBrowsers(project: string): number;
  /** Drops the project's model, closing it (its project is deleted). */
  drop(project: string): Promise<void>;
}

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

/**
 * The organization's projects and their limits: each project a wall around its own records; the
 * default project always there (a call that names none acts in it); the project a call acts in;
 * the limits each project's quota reads at once.
 */
export class Projects {
  readonly #context: OrgContext;
  readonly #models: ProjectModels;
  readonly #keys: () => ApiKeys;
  /** Each project's limits as last read: the quota reads them at once. */
  readonly #limits = new Map<string, StoredProject['limits']>();
  #settings: StoredOrgSettings = NO_SETTINGS;
  #settingsReadAt = 0;
  #defaultMade: Promise<void> | undefined;

  /** `keys`: the organization's keys, which stop when their project is deleted. */
  constructor(context: OrgContext, models: ProjectModels, keys: () => ApiKeys) {
    this.#context = context;
    this.#models = models;
    this.#keys = keys;
  }

  get #projects() {
    return this.#context.records.projects;
  }

  /** The default project is in the store (made once, by whichever call comes first). */
  ready(): Promise<void> {
    this.#defaultMade ??= this.#makeDefault().catch((error: unknown) => {
      this.#defaultMade = undefined; // the store may answer next time
      throw error;
    });
    return this.#defaultMade;
  }

  async #makeDefault(): Promise<void> {
    if (await this.#projects.get(DEFAULT_PROJECT_ID)) return;
    const now = formatTimestamp(this.#context.clock());
    const record: Project = {
      id: DEFAULT_PROJECT_ID,
      name: DEFAULT_PROJECT_ID,
      status: 'active',
      created_at: now,
      updated_at: now,
    };
    await this.#projects
      .put(DEFAULT_PROJECT_ID, { record, limits: NO_LIMITS }, { name: DEFAULT_PROJECT_ID })
      .catch((error: unknown) => {
        // Another server on the same store made it first: one is enough.
        if (!(error instanceof NameTaken)) throw error;
      });
  }

  /**
   * At start: the default project made if missing, the defaults and every project's limits
   * read. Gives every project's id.
   */
  async load(): Promise<string[]> {
    await this.ready();
    await this.#readSettings(true);
    const ids: string[] = [];
    for (const project of await this.#projects.list()) {
      this.#limits.set(project.record.id, project.limits);
      ids.push(project.record.id);
    }
    return ids;
  }

  /** Every project's id, as the store has them. */
  async ids(): Promise<string[]> {
    return (await this.#projects.list()).map((project) => project.record.id);
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
        this.#settings = (await this.#context.records.orgSettings.get('settings')) ?? NO_SETTINGS;
        // The default project's own limits too: a call that names no project reads no record.
        const fallback = await this.#projects.get(DEFAULT_PROJECT_ID);
        if (fallback) this.#limits.set(DEFAULT_PROJECT_ID, fallback.limits);
        this.#settingsReadAt = now;
      } catch (error) {
        if (force) throw error;
      }
    }
    return this.#settings;
  }

  /** A project's cap on sessions or invocations: its own, else the organization's default. */
  effective(project: string, what: 'sessions' | 'invocations'): number | undefined {
    const own = this.#limits.get(project) ?? NO_LIMITS;
    const value =
      what === 'sessions'
        ? (own.max_concurrent_sessions ?? this.#settings.default_project_max_concurrent_sessions)
        : (own.max_concurrent_invocations ??
          this.#settings.default_project_max_concurrent_invocations);
    return value ?? undefined;
  }

  /**
   * The project a call acts in: the one its header names (id or name), else its key's, else the
   * default. A project key naming another project is 403 (whether or not that one exists); an
   * unknown or archived project is 404.
   */
  async actingProject(caller: Caller, header: string | undefined): Promise<string> {
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
    await this.ready();
    const project = await findByIdOrName(this.#projects, named);
    // A project key learns nothing of other projects: whether one exists or is archived, 403.
    if (caller.project !== undefined && project?.record.id !== caller.project) {
      throw forbidden(`This key reaches project ${caller.project} only.`);
    }
    if (project?.record.status !== 'active') throw projectNotFound(named);
    this.#limits.set(project.record.id, project.limits);
    await this.#readSettings();
    this.#models.open(project.record.id);
    return project.record.id;
  }

  /** A project by id or name, as `caller` may see it: another project of a project key is 404. */
  async #visible(caller: Caller, idOrName: string): Promise<StoredProject> {
    await this.ready();
    const found = await findByIdOrName(this.#projects, idOrName);
    if (!found || (caller.project !== undefined && found.record.id !== caller.project)) {
      throw new ServiceError('not_found', `No project "${idOrName}".`);
    }
    return found;
  }

  async create(caller: Caller, name: string): Promise<Project> {
    assertOrgWide(caller, 'create projects');
    await this.ready();
    const projects = await this.#projects.list();
    if (projects.length >= MAX_PROJECTS) {
      throw new ServiceError('conflict', `This server keeps at most ${MAX_PROJECTS} projects.`);
    }
    if (projects.some((project) => project.record.name === name)) {
      throw new ServiceError('conflict', `A project named "${name}" already exists.`);
    }
    const now = formatTimestamp(this.#context.clock());
    const record: Project = {
      id: this.#context.nextId('proj'),
      name,
      status: 'active',
      created_at: now,
      updated_at: now,
    };
    await putNamed(this.#projects, record.id, { record, limits: NO_LIMITS }, name, 'project');
    this.#limits.set(record.id, NO_LIMITS);
    this.#models.open(record.id);
    return record;
  }

  async page(caller: Caller, query: ProjectListQuery): Promise<Page<Project>> {
    await this.ready();
    const all = (await this.#projects.list())
      .map((project) => project.record)
      .filter((record) => caller.project === undefined || record.id === caller.project);
    return namedPage(all, query);
  }

  async get(caller: Caller, idOrName: string): Promise<Project> {
    return (await this.#visible(caller, idOrName)).record;
  }

  async update(caller: Caller, idOrName: string, body: UpdateProjectInput): Promise<Project> {
    const found = await this.#visible(caller, idOrName);
    if (body.status !== undefined && body.status !== found.record.status) {
      assertOrgWide(caller, 'archive or restore a project');
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
      updated_at: formatTimestamp(this.#context.clock()),
    };
    await putNamed(this.#projects, record.id, { ...found, record }, record.name, 'project');
    return record;
  }

  async delete(caller: Caller, idOrName: string): Promise<void> {
    assertOrgWide(caller, 'delete projects');
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
    if (found.record.status === 'active') await this.#projects.put(id, closing);
    const held = await this.#holdings(id);
    if (held.length > 0) {
      if (found.record.status === 'active') await this.#projects.put(id, found);
      throw new ServiceError(
        'conflict',
        `Project "${idOrName}" still holds ${held.join(', ')}: delete them first.`,
      );
    }
    await this.#projects.delete(id);
    await this.#keys().retireProjectKeys(id);
    this.#limits.delete(id);
    await this.#models.drop(id);
    // What is left is history (ended sessions, ended invocations, replays' records): it goes too.
    const scope = this.#context.stores.scope(id);
    for (const kind of PROJECT_RECORD_KINDS) {
      const table = scope[kind];
      for (const record of await table.list()) {
        await table.delete(idOf(record));
      }
    }
  }

  /** What a project still holds that stops its deletion, in words. */
  async #holdings(project: string): Promise<string[]> {
    const scope = this.#context.stores.scope(project);
    const live = this.#models.liveBrowsers(project);
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

  async limits(caller: Caller, idOrName: string): Promise<ProjectLimits> {
    return { ...(await this.#visible(caller, idOrName)).limits };
  }

  async updateLimits(
    caller: Caller,
    idOrName: string,
    body: UpdateProjectLimitsInput,
  ): Promise<ProjectLimits> {
    assertOrgWide(caller, 'change limits');
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
    await this.#projects.put(found.record.id, { ...found, limits });
    this.#limits.set(found.record.id, limits);
    return { ...limits };
  }

  #assertWithinServer(value: StoredLimit, field: string): void {
    const { maxBrowsers } = this.#context.settings;
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
    return { max_concurrent_sessions: this.#context.settings.maxBrowsers, ...settings };
  }

  async updateOrgLimits(caller: Caller, body: UpdateOrgLimitsInput): Promise<OrgLimits> {
    assertOrgWide(caller, 'change limits');
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
    await this.#context.records.orgSettings.put('settings', settings);
    this.#settings = settings;
    this.#settingsReadAt = Date.now();
    return { max_concurrent_sessions: this.#context.settings.maxBrowsers, ...settings };
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
