/**
 * Deployments and the app versions they bring.
 *
 * A deploy is answered once queued (its archive kept by the engine); the engine then installs the
 * code and finds its apps in the background: queued → in_progress → running (its app versions can
 * be invoked) or failed (with a reason); a delete stops it. Records and app versions are in the
 * store; a deployment's events (install log lines, states, app versions) are kept in memory on
 * the node that runs the deploy, bounded, for `GET /deployments/{id}/events`, which replays them
 * and follows until a final state.
 */
import {
  type AppVersion,
  type CreateDeploymentForm,
  type Deployment,
  type DeploymentEvent,
  type DeploymentListQuery,
  FINAL_DEPLOYMENT_STATUSES,
  formatTimestamp,
  HEADERS,
  type ListAppsQuery,
  type Page,
  pageOf,
} from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { notFound } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import type { Caller } from '../pipeline/auth.js';
import type { StoredDeployment } from '../records/record-store.js';
import { ServiceError } from '../service-error.js';
import {
  DEPLOY_KEY_LIFETIME_MS,
  type Deployer,
  type DeploymentKeys,
  INVOCATION_KEY_GRACE_MS,
  keyVariables,
} from './deployment-keys.js';
import { EventLog } from './event-log.js';

/** Most events one deployment keeps for late readers; older log lines go first. */
export const MAX_DEPLOYMENT_EVENTS = 2_000;

/** Ended deployments and invocations whose events a model keeps for late readers. */
export const MAX_ENDED_FOLLOWED = 200;

/** Deployments a project may have open at once (queued, deploying or running). */
export const MAX_OPEN_DEPLOYMENTS = 50;

/** Bytes a project's running deployments may take on a node's disk together. */
export const MAX_PROJECT_DEPLOYMENT_BYTES = 5 * 1024 * 1024 * 1024;

/** Most bytes of events one deployment keeps (its oldest log lines go first). */
export const MAX_DEPLOYMENT_EVENT_BYTES = 2 * 1024 * 1024;

/** Most bytes of events a project's ended deployments (or invocations) keep together. */
export const MAX_ENDED_EVENT_BYTES = 16 * 1024 * 1024;

/** Deploys installs run at once on a node; the next wait, queued. */
export const DEPLOYS_AT_ONCE = 2;

/** Deploys waiting for their turn on a node at most; one more is 429. */
export const MAX_QUEUED_DEPLOYS = 16;

/** Deploys of one project waiting for their turn on a node at most; one more is 429. */
export const MAX_QUEUED_DEPLOYS_PER_PROJECT = 4;

/** Longest log line an event carries, in characters; the rest is cut and marked. */
export const MAX_DEPLOYMENT_LOG_LINE = 65_536;

/** The record's redacted environment: every name, each value ''. */
function redacted(env: Readonly<Record<string, string>>): Record<string, ''> {
  return Object.fromEntries(Object.keys(env).map((name) => [name, ''] as const));
}

/** Whether a deployment's status is one it stays in (its events end there). */
export function isFinalDeployment(status: Deployment['status']): boolean {
  return FINAL_DEPLOYMENT_STATUSES.includes(status);
}

/** Every rule of deployments and app versions, over the store and the app engine. */
export class DeploymentModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #keys: DeploymentKeys | undefined;
  readonly #events = new EventLog<DeploymentEvent>({
    maxEvents: MAX_DEPLOYMENT_EVENTS,
    maxBytes: MAX_DEPLOYMENT_EVENT_BYTES,
    maxEnded: MAX_ENDED_FOLLOWED,
    maxEndedBytes: MAX_ENDED_EVENT_BYTES,
    isFinal: (event) =>
      event.event === 'deployment_state' && isFinalDeployment(event.deployment.status),
  });
  readonly #running = new Map<string, AbortController>();
  /** Deploys under way on this node, to wait for at close. */
  readonly #work = new Set<Promise<void>>();
  /** Called before a deployment stops: its running invocations end (the invocation model). */
  beforeStop: (deploymentId: string, reason: string) => Promise<void> = async () => undefined;

  constructor(context: ModelContext<I>, keys?: DeploymentKeys) {
    this.#context = context;
    this.#keys = keys;
  }

  get #records() {
    return this.#context.engines.records;
  }

  get #engine() {
    return this.#context.engines.apps;
  }

  #now(): string {
    return formatTimestamp(this.#context.clock());
  }

  /** Queues a deploy: the archive is kept, the record stored; the deploy runs in the background. */
  async create(form: CreateDeploymentForm, caller?: Caller): Promise<Deployment> {
    // Deployed code may call the API, never deploy more code (and mint itself more keys).
    if (caller?.isMinted === true)
      throw new ServiceError('forbidden', 'A key minted for deployed code may not deploy.');
    const env = form.env_vars ?? {};
    const slots = this.#engine.deploySlots;
    if (slots.load.waiting >= MAX_QUEUED_DEPLOYS) {
      throw new ServiceError(
        'rate_limited',
        `This server has ${MAX_QUEUED_DEPLOYS} deploys waiting already. Try again when they are done.`,
        { headers: { [HEADERS.retryAfter]: '10' } },
      );
    }

    const id = this.#context.nextId('dep');
    const deployer: Deployer | undefined = caller && {
      keyId: caller.keyId,
      ...(caller.strategy === 'api_key' && { parentKey: caller.keyId }),
    };
    const minted = await this.#keys?.mint(
      `deployment ${id}`,
      deployer,
      new Date(this.#context.clock().getTime() + DEPLOY_KEY_LIFETIME_MS),
    );
    let checksum: string;
    try {
      ({ checksum } = await this.#engine.keep(id, form.file));
    } catch (error) {
      if (minted) await this.#keys?.retire(minted.id);
      throw error;
    }
    const now = this.#now();
    const record: Deployment = {
      id,
      created_at: now,
      updated_at: now,
      status: 'queued',
      version: form.version,
      entrypoint_rel_path: form.entrypoint_rel_path,
      env_vars: redacted(env),
      source_type: 'file',
      source_checksum: checksum,
    };
    const { secrets } = this.#context.engines;
    const sealedEnv = Object.fromEntries(
      Object.entries(env).map(([name, value]) => [name, secrets.seal(value)]),
    );
    const key = minted && { id: minted.id, sealed: secrets.seal(minted.key) };
    try {
      await this.#records.transaction(async ({ deployments }) => {
        const open = await deployments.list({ isOpen: true });
        if (open.length >= MAX_OPEN_DEPLOYMENTS)
          throw new ServiceError(
            'conflict',
            `A project keeps at most ${MAX_OPEN_DEPLOYMENTS} deployments open: delete one first.`,
          );
        // One project's deploys never fill the line while the node serves others: they keep
        // their places in it. Counted in the store, so a burst of creates is counted whole.
        const queued = open.filter((each) => each.record.status === 'queued').length;
        if (
          (this.#context.quota.projectsHere?.() ?? 1) > 1 &&
          queued >= MAX_QUEUED_DEPLOYS_PER_PROJECT
        )
          throw new ServiceError(
            'rate_limited',
            `This project has ${MAX_QUEUED_DEPLOYS_PER_PROJECT} deploys waiting already. Try again when they are done.`,
            { headers: { [HEADERS.retryAfter]: '10' } },
          );
        await deployments.put(
          id,
          { record, sealedEnv, key, ...(deployer && { deployer }) },
          { isOpen: true },
        );
      });
    } catch (error) {
      await this.#engine.remove(id);
      if (minted) await this.#keys?.retire(minted.id);
      throw error;
    }
    this.#events.open(id);
    this.#emit(id, { event: 'deployment_state', timestamp: now, deployment: record });
    const work = this.#run(record, form.force === 'true').finally(() => this.#work.delete(work));
    this.#work.add(work);
    return record;
  }

  async #run(queued: Deployment, force: boolean): Promise<void> {
    const controller = new AbortController();
    this.#running.set(queued.id, controller);
    let record = queued;
    let free: (() => void) | undefined;
    try {
      // Its turn first: a few installs at once, the rest wait queued.
      free = await this.#engine.deploySlots.take(controller.signal, this.#context.project);
      record = await this.#setStatus(record, 'in_progress');
      const outcome = await this.#engine.deploy({
        deploymentId: record.id,
        entrypoint: record.entrypoint_rel_path,
        env: await this.#deployEnvironment(record.id),
        onLog: (message) => this.#log(record.id, message),
        signal: controller.signal,
      });
      if (controller.signal.aborted) {
        // Stopped by a delete (which the status keeps), or the server is shutting down.
        record = await this.#fail(record, 'The server shut down during the deploy: deploy again.');
        return;
      }
      if (!outcome.ok) {
        record = await this.#fail(record, outcome.reason);
        return;
      }
      if (!(await this.#keepBytes(record.id, outcome.bytes))) {
        record = await this.#fail(
          record,
          `The project's deployments would take more than ${MAX_PROJECT_DEPLOYMENT_BYTES} bytes of disk with this one (${outcome.bytes}): delete one first.`,
        );
        return;
      }
      if (outcome.apps.length === 0) {
        record = await this.#fail(
          record,
          `${record.entrypoint_rel_path} defines no app: define one with kernel.app('name') of @onkernel/sdk or defineApp('name') of @x/client/apps.`,
        );
        return;
      }
      const appNames = outcome.apps.map((app) => app.name);
      record = { ...record, app_name: appNames[0] };
      const placed = await this.#records.transaction(async ({ appVersions, deployments }) => {
        const current = await deployments.get(record.id);
        if (current?.record.status !== 'in_progress') return undefined;
        const taken = (await appVersions.list()).filter(
          (each) => each.version === record.version && appNames.includes(each.app_name),
        );
        if (taken.length > 0 && !force) return { taken, isPlaced: false };
        for (const old of taken) await appVersions.delete(old.id);
        for (const app of outcome.apps) {
          const version: AppVersion = {
            id: this.#context.nextId('apv'),
            app_name: app.name,
            version: record.version,
            deployment: record.id,
            actions: app.actions.map((action) => ({ name: action.name })),
            env_vars: record.env_vars,
          };
          await appVersions.put(version.id, version, { parent: record.id });
        }
        return { taken, isPlaced: true };
      });
      // Stopped meanwhile: the delete said so already.
      if (placed === undefined) return;
      if (!placed.isPlaced) {
        const [first] = placed.taken;
        record = await this.#fail(
          record,
          `Version "${record.version}" of app "${first?.app_name}" is deployed already (deployment ${first?.deployment}): deploy with force=true to replace it.`,
        );
        return;
      }
      // A replaced version's deployment keeps running only while it still brings an app version.
      for (const deploymentId of new Set(placed.taken.map((old) => old.deployment))) {
        const left = await this.#records.appVersions.list({ parent: deploymentId });
        if (left.length === 0)
          await this.#stop(deploymentId, `Replaced by deployment ${record.id}.`);
      }
      for (const version of await this.#records.appVersions.list({ parent: record.id })) {
        this.#emit(record.id, { event: 'app_version_summary', timestamp: this.#now(), ...version });
      }
      // The deploy's key goes before its end is told: a reader told `running` finds it gone.
      await this.#retireDeployKey(record.id);
      record = await this.#setStatus(record, 'running');
    } catch (error) {
      // Stopped while it waited its turn (a delete, a shutdown): the status says so already, or
      // the shutdown's reason does.
      const reason = controller.signal.aborted
        ? 'The server shut down during the deploy: deploy again.'
        : error instanceof ServiceError
          ? error.message
          : 'The deploy failed unexpectedly.';
      if (!controller.signal.aborted) {
        this.#context.log.error({ err: error, deployment: record.id }, 'deploy failed');
      }
      await this.#fail(record, reason).catch((failure: unknown) =>
        this.#context.log.warn(
          { err: failure, deployment: record.id },
          'a failed deploy could not be cleaned up and marked failed',
        ),
      );
    } finally {
      free?.();
      this.#running.delete(record.id);
      // The deploy's key goes with the deploy: invocations get keys of their own.
      await this.#retireDeployKey(record.id).catch((error: unknown) =>
        this.#context.log.warn({ err: error, deployment: record.id }, 'a deploy key stays'),
      );
    }
  }

  /**
   * Keeps what a deployment's installed code takes on disk, unless the project's open
   * deployments would then take more than they may (false).
   */
  async #keepBytes(id: string, bytes: number | undefined): Promise<boolean> {
    if (bytes === undefined) return true;
    return this.#records.transaction(async ({ deployments }) => {
      let others = 0;
      for (const stored of await deployments.list({ isOpen: true }))
        if (stored.record.id !== id) others += stored.installedBytes ?? 0;
      if (others + bytes > MAX_PROJECT_DEPLOYMENT_BYTES) return false;
      const current = await deployments.get(id);
      if (current?.record.status === 'in_progress')
        await deployments.put(id, { ...current, installedBytes: bytes }, { isOpen: true });
      return true;
    });
  }

  async #retireDeployKey(id: string): Promise<void> {
    const stored = await this.#records.deployments.get(id);
    if (stored?.key) await this.#keys?.retire(stored.key.id);
  }

  /** Fails a deployment: what it left is removed first, so a reader told `failed` finds nothing. */
  async #fail(record: Deployment, reason: string): Promise<Deployment> {
    await this.#release(record.id);
    return this.#setStatus(record, 'failed', reason);
  }

  /** What an ended deployment held goes: its code on this node, its key. */
  async #release(id: string): Promise<void> {
    await this.#engine.remove(id);
    const stored = await this.#records.deployments.get(id);
    if (stored?.key) await this.#keys?.retire(stored.key.id);
  }

  /** Moves a deployment to `status` unless it has stopped meanwhile; answers it as it is then. */
  async #setStatus(
    record: Deployment,
    status: Deployment['status'],
    reason?: string,
  ): Promise<Deployment> {
    const timestamp = this.#now();
    const next = await this.#records.transaction(async ({ deployments }) => {
      const stored = await deployments.get(record.id);
      if (!stored) throw notFound('deployment', record.id);
      if (stored.record.status === 'stopped' || stored.record.status === 'failed') {
        return stored.record;
      }
      const changed: Deployment = { ...record, status, updated_at: timestamp };
      if (reason === undefined) delete changed.status_reason;
      else changed.status_reason = reason;
      await deployments.put(
        record.id,
        { ...stored, record: changed },
        { isOpen: !isFinalDeployment(status) || status === 'running' },
      );
      return changed;
    });
    if (next.status === status) {
      this.#emit(record.id, { event: 'deployment_state', timestamp, deployment: next });
    }
    return next;
  }

  #log(id: string, line: string): void {
    const message =
      line.length > MAX_DEPLOYMENT_LOG_LINE
        ? `${line.slice(0, MAX_DEPLOYMENT_LOG_LINE)} … (line cut at ${MAX_DEPLOYMENT_LOG_LINE} characters)`
        : line;
    this.#emit(id, { event: 'log', timestamp: this.#now(), message });
  }

  #emit(id: string, event: DeploymentEvent): void {
    this.#events.emit(id, event);
  }

  /**
   * The deployment's events so far, then each as it comes, until a final state. A deployment this
   * node does not follow (deployed before a restart, or on another node) gives its state alone.
   */
  async *events(id: string, signal: AbortSignal): AsyncGenerator<DeploymentEvent, void> {
    const stored = await this.#stored(id);
    yield* this.#events.events(id, signal, () => ({
      event: 'deployment_state',
      timestamp: this.#now(),
      deployment: stored.record,
    }));
  }

  async #stored(id: string): Promise<StoredDeployment> {
    const stored = await this.#records.deployments.get(id);
    if (!stored) throw notFound('deployment', id);
    return stored;
  }

  /** One deployment; 404 when there is none. */
  async get(id: string): Promise<Deployment> {
    return (await this.#stored(id)).record;
  }

  /** One page of the deployments, oldest first; `app_version` only with `app_name`. */
  async page(query: DeploymentListQuery): Promise<Page<Deployment>> {
    if (query.app_version !== undefined && query.app_name === undefined) {
      throw new ServiceError('bad_request', 'app_version filters only with app_name.', {
        details: [{ code: 'invalid_input', message: 'query.app_version: needs app_name' }],
      });
    }
    let records = (await this.#records.deployments.list()).map((stored) => stored.record);
    if (query.app_name !== undefined) {
      const versions = (await this.#records.appVersions.list()).filter(
        (each) =>
          each.app_name === query.app_name &&
          (query.app_version === undefined || each.version === query.app_version),
      );
      const ids = new Set(versions.map((each) => each.deployment));
      records = records.filter(
        (record) =>
          ids.has(record.id) ||
          (record.app_name === query.app_name &&
            (query.app_version === undefined || record.version === query.app_version)),
      );
    }
    return pageOf(records, query.offset, query.limit);
  }

  /** One page of the app versions that can be invoked. */
  async apps(query: ListAppsQuery): Promise<Page<AppVersion>> {
    const versions = (await this.#records.appVersions.list()).filter(
      (each) =>
        (query.app_name === undefined || each.app_name === query.app_name) &&
        (query.version === undefined || each.version === query.version),
    );
    return pageOf(versions, query.offset, query.limit);
  }

  /** The running app version an invocation names; 404 for an unknown app or version. */
  async appVersion(appName: string, version: string): Promise<AppVersion> {
    const found = (await this.#records.appVersions.list()).find(
      (each) => each.app_name === appName && each.version === version,
    );
    if (!found) throw notFound('app version', `${appName}@${version}`);
    return found;
  }

  /**
   * A deployment's environment, opened, for the code it runs: its own variables, and its key
   * under KEY_VARIABLES (where keys are minted).
   */
  async environmentOf(id: string, key?: string): Promise<Record<string, string>> {
    const { sealedEnv } = await this.#stored(id);
    const { secrets } = this.#context.engines;
    const env = Object.fromEntries(
      Object.entries(sealedEnv).map(([name, sealed]) => [name, secrets.open(sealed)]),
    );
    return key === undefined ? env : { ...env, ...keyVariables(key) };
  }

  /** The deploy's own environment: the deployment's, with the key minted for the deploy. */
  async #deployEnvironment(id: string): Promise<Record<string, string>> {
    const { key } = await this.#stored(id);
    const { secrets } = this.#context.engines;
    return this.environmentOf(id, key && secrets.open(key.sealed));
  }

  /**
   * A key of its own for one invocation of a deployment's code: it expires with the invocation
   * (its time-out and a minute), and works only while the deployer's key does. Undefined where
   * keys are not minted.
   */
  async mintInvocationKey(
    deploymentId: string,
    invocationId: string,
    timeoutMs: number,
  ): Promise<{ readonly id: string; readonly key: string } | undefined> {
    if (!this.#keys) return undefined;
    const { deployer } = await this.#stored(deploymentId);
    const expiresAt = new Date(
      this.#context.clock().getTime() + timeoutMs + INVOCATION_KEY_GRACE_MS,
    );
    return this.#keys.mint(`invocation ${invocationId}`, deployer, expiresAt);
  }

  /** Retires a key minted for a run. */
  async retireKey(id: string): Promise<void> {
    await this.#keys?.retire(id);
  }

  /**
   * Stops a deployment: a deploy under way ends, its app versions go, its installed code is
   * removed. A deployment that has ended already stays as it is.
   */
  async delete(id: string): Promise<void> {
    const stored = await this.#stored(id);
    if (stored.record.status === 'failed' || stored.record.status === 'stopped') {
      // Ended already: only its kept events go (a late reader gets its state alone).
      this.#events.forget(id);
      return;
    }
    await this.#stop(id, 'Deleted.');
  }

  async #stop(id: string, reason: string): Promise<void> {
    this.#running.get(id)?.abort();
    await this.beforeStop(id, reason);
    const timestamp = this.#now();
    const stopped = await this.#records.transaction(async ({ deployments, appVersions }) => {
      const stored = await deployments.get(id);
      if (!stored) return undefined;
      for (const version of await appVersions.list({ parent: id })) {
        await appVersions.delete(version.id);
      }
      if (stored.record.status === 'failed' || stored.record.status === 'stopped') return undefined;
      const record: Deployment = {
        ...stored.record,
        status: 'stopped',
        status_reason: reason,
        updated_at: timestamp,
      };
      await deployments.put(id, { ...stored, record }, { isOpen: false });
      return record;
    });
    await this.#release(id);
    if (stopped) this.#emit(id, { event: 'deployment_state', timestamp, deployment: stopped });
    // Its events go with it (a reader still following heard its end): only its state is left.
    this.#events.forget(id);
  }

  /**
   * After a restart: a deploy an earlier run left queued or in progress cannot go on (its
   * archive and half an install are gone with it): it is failed, saying so.
   */
  async recover(): Promise<void> {
    const { owns = () => true } = this.#context.settings;
    await this.#failDeploying(owns, 'The server restarted during the deploy: deploy again.');
  }

  /**
   * A cluster lost nodes: the deploys under way on them (`isOf` picks them by id) fail saying
   * so. Their running deployments stay (the code is on that node's disk): they serve again when
   * it comes back. Gives how many failed.
   */
  endLost(isOf: (id: string) => boolean): Promise<number> {
    return this.#failDeploying(isOf, 'The node that deployed it was lost: deploy again.');
  }

  async #failDeploying(isOf: (id: string) => boolean, reason: string): Promise<number> {
    let failed = 0;
    for (const stored of await this.#records.deployments.list({ isOpen: true })) {
      const { record } = stored;
      if (record.status !== 'queued' && record.status !== 'in_progress') continue;
      if (!isOf(record.id)) continue;
      await this.#fail(record, reason);
      failed++;
    }
    return failed;
  }

  /** How many deployments are being deployed or running (what keeps a project from deletion). */
  async openCount(): Promise<number> {
    return (await this.#records.deployments.list({ isOpen: true })).length;
  }

  /** Shutdown: deploys under way end as failed, their half-done work removed. */
  async close(): Promise<void> {
    for (const controller of this.#running.values()) controller.abort();
    await Promise.allSettled([...this.#work]);
  }
}
