/**
 * DRAFT (not wired yet): deployments and the app versions they bring.
 *
 * A deploy is answered once queued; the engine then installs and discovers the code in the
 * background: queued → in_progress → running (its app versions can be invoked) or failed (with a
 * reason). Its events (log lines, states, app version summaries) are kept, bounded, for
 * `GET /deployments/{id}/events`, which replays them and follows until a final state.
 */
import {
  type AppVersion,
  type CreateDeploymentForm,
  type Deployment,
  type DeploymentEvent,
  FINAL_DEPLOYMENT_STATUSES,
  formatTimestamp,
  MAX_DEPLOYMENT_ENV_VARS,
} from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import { ServiceError } from '../service-error.js';

/** Most events one deployment keeps for late readers; older log lines go first. */
export const MAX_DEPLOYMENT_EVENTS = 2_000;

/** An app and its actions as the engine found them in the code. */
export interface FoundApp {
  readonly name: string;
  readonly actions: readonly { readonly name: string }[];
}

/** A deploy the engine is asked to run. */
export interface DeployJob {
  readonly deploymentId: string;
  readonly archive: Blob;
  readonly entrypoint: string;
  readonly onLog: (message: string) => void;
  readonly signal: AbortSignal;
}

/** How a deploy ended: the apps found, or why it failed. */
export type DeployOutcome =
  | { readonly ok: true; readonly apps: readonly FoundApp[] }
  | { readonly ok: false; readonly reason: string };

/** What runs deployments' code: the server in sandboxes, the fake in its own process. */
export interface AppEngine {
  /** Unpacks the archive, installs its dependencies and finds the apps its entrypoint defines. */
  deploy(job: DeployJob): Promise<DeployOutcome>;
  /** Removes what a deployment left on this node (its installed folder). */
  remove(deploymentId: string): Promise<void>;
}

/** A deployment as it is stored: its record and its environment, sealed. */
export interface StoredDeployment {
  readonly record: Deployment;
  /** The environment variables, each value sealed with the service's secret box. */
  readonly sealedEnv: Readonly<Record<string, string>>;
}

/** A deployment's events and who waits for the next. */
interface Follow {
  readonly events: DeploymentEvent[];
  readonly waiters: Set<() => void>;
}

/** The record's redacted environment: every name, each value ''. */
function redacted(env: Readonly<Record<string, string>>): Record<string, ''> {
  return Object.fromEntries(Object.keys(env).map((name) => [name, ''] as const));
}

export class DeploymentModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #engine: AppEngine;
  readonly #follows = new Map<string, Follow>();
  readonly #running = new Map<string, AbortController>();
  /** App versions by `app_name\nversion`, running now. */
  readonly #versions = new Map<string, AppVersion>();

  constructor(context: ModelContext<I>, engine: AppEngine) {
    this.#context = context;
    this.#engine = engine;
  }

  /** Queues a deploy and starts it; answers the queued record. */
  async create(form: CreateDeploymentForm, checksum: string): Promise<Deployment> {
    const env = form.env_vars ?? {};
    if (Object.keys(env).length > MAX_DEPLOYMENT_ENV_VARS) {
      throw new ServiceError(
        'bad_request',
        `A deployment holds at most ${MAX_DEPLOYMENT_ENV_VARS} environment variables.`,
      );
    }
    const now = formatTimestamp(this.#context.clock());
    const record: Deployment = {
      id: this.#context.nextId('dep'),
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
    await this.#store({ record, sealedEnv });
    this.#follows.set(record.id, { events: [], waiters: new Set() });
    this.#emit(record.id, { event: 'deployment_state', timestamp: now, deployment: record });
    void this.#run(record, form);
    return record;
  }

  async #run(queued: Deployment, form: CreateDeploymentForm): Promise<void> {
    const controller = new AbortController();
    this.#running.set(queued.id, controller);
    let record = await this.#setStatus(queued, 'in_progress');
    try {
      const outcome = await this.#engine.deploy({
        deploymentId: record.id,
        archive: form.file,
        entrypoint: form.entrypoint_rel_path,
        onLog: (message) =>
          this.#emit(record.id, {
            event: 'log',
            timestamp: formatTimestamp(this.#context.clock()),
            message,
          }),
        signal: controller.signal,
      });
      if (!outcome.ok) {
        record = await this.#setStatus(record, 'failed', outcome.reason);
        return;
      }
      if (outcome.apps.length === 0) {
        record = await this.#setStatus(record, 'failed', 'The entrypoint defines no app.');
        return;
      }
      const taken = outcome.apps.find((app) =>
        this.#versions.has(`${app.name}\n${record.version}`),
      );
      if (taken && form.force !== 'true') {
        record = await this.#setStatus(
          record,
          'failed',
          `Version ${record.version} of app "${taken.name}" is deployed already; deploy with force to replace it.`,
        );
        return;
      }
      for (const app of outcome.apps) {
        const version: AppVersion = {
          id: this.#context.nextId('apv'),
          app_name: app.name,
          version: record.version,
          deployment: record.id,
          actions: app.actions.map((action) => ({ name: action.name })),
          env_vars: record.env_vars,
        };
        this.#versions.set(`${app.name}\n${record.version}`, version);
        this.#emit(record.id, {
          event: 'app_version_summary',
          timestamp: formatTimestamp(this.#context.clock()),
          ...version,
        });
      }
      record = await this.#setStatus({ ...record, app_name: outcome.apps[0]?.name }, 'running');
    } catch (error) {
      await this.#setStatus(
        record,
        'failed',
        error instanceof ServiceError ? error.message : 'The deploy failed unexpectedly.',
      );
    } finally {
      this.#running.delete(record.id);
    }
  }

  async #setStatus(
    record: Deployment,
    status: Deployment['status'],
    reason?: string,
  ): Promise<Deployment> {
    const timestamp = formatTimestamp(this.#context.clock());
    const next: Deployment = {
      ...record,
      status,
      updated_at: timestamp,
      ...(reason === undefined ? {} : { status_reason: reason }),
    };
    const stored = await this.#load(record.id);
    await this.#store({ record: next, sealedEnv: stored?.sealedEnv ?? {} });
    this.#emit(record.id, { event: 'deployment_state', timestamp, deployment: next });
    return next;
  }

  #emit(id: string, event: DeploymentEvent): void {
    const follow = this.#follows.get(id);
    if (!follow) return;
    follow.events.push(event);
    if (follow.events.length > MAX_DEPLOYMENT_EVENTS) {
      const oldestLog = follow.events.findIndex((each) => each.event === 'log');
      follow.events.splice(oldestLog === -1 ? 0 : oldestLog, 1);
    }
    for (const wake of follow.waiters) wake();
    follow.waiters.clear();
  }

  /** The deployment's events so far, then each as it comes, until a final state. */
  async *events(id: string, signal: AbortSignal): AsyncGenerator<DeploymentEvent, void> {
    const stored = await this.#load(id);
    if (!stored) throw new ServiceError('not_found', `No deployment ${id}.`);
    const follow = this.#follows.get(id);
    if (!follow || FINAL_DEPLOYMENT_STATUSES.includes(stored.record.status)) {
      yield {
        event: 'deployment_state',
        timestamp: formatTimestamp(this.#context.clock()),
        deployment: stored.record,
      };
      if (!follow) return;
    }
    let next = 0;
    while (!signal.aborted) {
      while (next < follow.events.length) {
        const event = follow.events[next++] as DeploymentEvent;
        yield event;
        if (
          event.event === 'deployment_state' &&
          FINAL_DEPLOYMENT_STATUSES.includes(event.deployment.status)
        )
          return;
      }
      await new Promise<void>((resolve) => {
        follow.waiters.add(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }

  /** The app version an invocation names, running; 404 for an unknown app or version. */
  appVersion(appName: string, version: string): AppVersion {
    const found = this.#versions.get(`${appName}\n${version}`);
    if (!found) {
      throw new ServiceError('not_found', `No running version ${version} of app "${appName}".`);
    }
    return found;
  }

  /** The app versions that can be invoked, by app and version. */
  versions(filter: { app_name?: string; version?: string }): AppVersion[] {
    return [...this.#versions.values()].filter(
      (version) =>
        (filter.app_name === undefined || version.app_name === filter.app_name) &&
        (filter.version === undefined || version.version === filter.version),
    );
  }

  /** Stops a deployment: a deploy still running ends, its app versions go. */
  async delete(id: string): Promise<void> {
    const stored = await this.#load(id);
    if (!stored) throw new ServiceError('not_found', `No deployment ${id}.`);
    this.#running.get(id)?.abort();
    for (const [key, version] of this.#versions) {
      if (version.deployment === id) this.#versions.delete(key);
    }
    if (stored.record.status !== 'failed' && stored.record.status !== 'stopped')
      await this.#setStatus(stored.record, 'stopped', 'Deleted.');
    await this.#engine.remove(id);
  }

  async #load(id: string): Promise<StoredDeployment | undefined> {
    // TODO(next): a `deployments` record table in the store (RECORD_KINDS).
    return this.#memory.get(id);
  }

  async #store(stored: StoredDeployment): Promise<void> {
    this.#memory.set(stored.record.id, stored);
  }

  readonly #memory = new Map<string, StoredDeployment>();
}
