import {
  type CreateInvocationInput,
  formatTimestamp,
  HEADERS,
  type Invocation,
  type InvocationEvent,
  type InvocationListQuery,
  type Page,
  pageOf,
  SYNC_INVOCATION_SECONDS,
  type UpdateInvocationInput,
} from '@x/types';
import {
  type DeploymentModel,
  MAX_DEPLOYMENT_EVENT_BYTES,
  MAX_ENDED_EVENT_BYTES,
} from '../apps/deployment-model.js';
import { EventLog } from '../apps/event-log.js';
import type { BrowserInstance } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { ServiceError } from '../service-error.js';

/** Most events one invocation keeps for late readers; older log lines go first. */
export const MAX_INVOCATION_EVENTS = 2_000;

/** Ended invocations whose events a model keeps for late readers. */
const MAX_ENDED_INVOCATIONS_FOLLOWED = 200;

/** The share of a node's invocation places kept for projects that run none there. */
const INVOCATION_PLACES_KEPT = 1 / 4;

/** Largest output an action may return, in characters of JSON. */
export const MAX_INVOCATION_OUTPUT = 1024 * 1024;

/** Longest console line an event carries, in characters; the rest is cut and marked. */
const MAX_LOG_LINE = 65_536;

/** A create-invocation call with its defaults applied. */
export type InvokeInput = Required<
  Pick<
    CreateInvocationInput,
    'app_name' | 'action_name' | 'version' | 'async' | 'async_timeout_seconds'
  >
> &
  Pick<CreateInvocationInput, 'payload'>;

function isEnded(invocation: Invocation): boolean {
  return invocation.status === 'succeeded' || invocation.status === 'failed';
}

/** A run under way on this node: how to stop it, and the deployment whose code it is. */
interface Run {
  readonly controller: AbortController;
  readonly deploymentId: string;
}

/**
 * Every rule of invocations: an action of a deployed app run with a payload (sync within 100 s,
 * or queued and run in the background), ended once, its browsers deleted when it ends; its
 * console and states followed until it ends.
 */
export class InvocationModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #runs = new Map<string, Run>();
  readonly #work = new Set<Promise<unknown>>();
  readonly #events = new EventLog<InvocationEvent>({
    maxEvents: MAX_INVOCATION_EVENTS,
    maxBytes: MAX_DEPLOYMENT_EVENT_BYTES,
    maxEnded: MAX_ENDED_INVOCATIONS_FOLLOWED,
    maxEndedBytes: MAX_ENDED_EVENT_BYTES,
    isFinal: (event) => event.event === 'invocation_state' && isEnded(event.invocation),
  });
  /** Ends the live browsers of an invocation (the browser model, set once both exist). */
  endBrowsersOf: (invocationId: string) => Promise<void> = async () => undefined;
  /** The deployments whose apps are invoked (set once both exist). */
  deployments: DeploymentModel<I> | undefined;

  constructor(context: ModelContext<I>) {
    this.#context = context;
  }

  get #records() {
    return this.#context.engines.records.invocations;
  }

  #now(): string {
    return formatTimestamp(this.#context.clock());
  }

  /**
   * Invokes an action of a running app version: 404 for an unknown app, version or action, 400
   * for a payload that is not JSON, 429 past the project's or this node's cap. A sync call
   * answers the ended invocation; an async one the queued invocation, at once.
   */
  async invoke(body: InvokeInput): Promise<{ readonly isSync: boolean; invocation: Invocation }> {
    const deployments = this.deployments;
    if (!deployments) throw new ServiceError('unavailable', 'This service runs no code.');
    const version = await deployments.appVersion(body.app_name, body.version);
    // In a cluster an invocation reaches the node of its deployment, unless that node is away.
    if (!(this.#context.settings.owns?.(version.deployment) ?? true))
      throw refusals.deploymentAway(body.app_name, version.version);
    if (!version.actions.some((action) => action.name === body.action_name)) {
      throw new ServiceError(
        'not_found',
        `App "${body.app_name}" version "${body.version}" has no action "${body.action_name}" (it has ${version.actions.map((action) => action.name).join(', ')}).`,
      );
    }
    if (body.payload !== undefined) {
      try {
        JSON.parse(body.payload);
      } catch {
        throw new ServiceError('bad_request', 'The payload must be JSON text.', {
          details: [{ code: 'invalid_input', message: 'body.payload: not JSON' }],
        });
      }
    }
    const { active } = this.#context.engines.apps;
    const { project } = this.#context;
    const max = this.#context.settings.maxInvocations;
    if (max !== undefined && active.size >= max) {
      throw new ServiceError(
        'rate_limited',
        `This server runs at most ${max} invocations at once. Try again when one ends.`,
        { headers: { [HEADERS.retryAfter]: '5' } },
      );
    }
    // The node's last places are kept for projects that run none: one project cannot take them
    // all while others share the node.
    if (max !== undefined && (this.#context.quota.projectsHere?.() ?? 1) > 1) {
      let mine = 0;
      for (const owner of active.values()) if (owner === project) mine++;
      const kept = Math.ceil(max * INVOCATION_PLACES_KEPT);
      if (mine > 0 && max - active.size <= kept) {
        throw new ServiceError(
          'rate_limited',
          `This server keeps its last ${kept} of ${max} invocation places for other projects, and this project runs ${mine}. Try again when one ends.`,
          { headers: { [HEADERS.retryAfter]: '5' } },
        );
      }
    }
    const invocation: Invocation = {
      id: this.#context.nextId('inv'),
      action_name: body.action_name,
      app_name: body.app_name,
      version: body.version,
      status: body.async ? 'queued' : 'running',
      started_at: this.#now(),
    };
    if (body.payload !== undefined) invocation.payload = body.payload;
    // Taken at once (no wait before it), so two calls cannot both take this node's last place.
    active.set(invocation.id, project);
    try {
      await this.#admit(invocation);
    } catch (error) {
      active.delete(invocation.id);
      throw error;
    }
    this.#events.open(invocation.id);
    this.#emitState(invocation);
    const timeoutMs = body.async
      ? body.async_timeout_seconds * 1000
      : SYNC_INVOCATION_SECONDS * 1000;
    const run = this.#run(invocation, version.deployment, timeoutMs);
    if (body.async) {
      const work = run.finally(() => this.#work.delete(work));
      this.#work.add(work);
      return { isSync: false, invocation };
    }
    return { isSync: true, invocation: await run };
  }

  /** Stores a new invocation, within the project's cap of invocations queued or running. */
  async #admit(invocation: Invocation): Promise<void> {
    const cap = this.#context.quota.invocations();
    if (cap === undefined) {
      await this.#records.put(invocation.id, invocation);
      return;
    }
    // Counted and stored in one transaction: two creates at once cannot both take the last place.
    await this.#context.engines.records.transaction(async ({ invocations }) => {
      const running = (await invocations.list()).filter((each) => !isEnded(each));
      if (running.length >= cap) {
        throw refusals.projectLimit(
          this.#context.project,
          'max_concurrent_invocations',
          cap,
          `${running.length} invocations run`,
        );
      }
      await invocations.put(invocation.id, invocation);
    });
  }

  async #run(queued: Invocation, deploymentId: string, timeoutMs: number): Promise<Invocation> {
    const controller = new AbortController();
    this.#runs.set(queued.id, { controller, deploymentId });
    let key: { readonly id: string; readonly key: string } | undefined;
    try {
      let invocation = queued;
      if (invocation.status === 'queued') {
        const running = await this.#move(invocation.id, (current) => ({
          ...current,
          status: 'running',
        }));
        if (isEnded(running)) return running;
        invocation = running;
      }
      const deployments = this.deployments as DeploymentModel<I>;
      const deployment = await deployments.get(deploymentId);
      // A key of the invocation's own, for as long as it may run.
      key = await deployments.mintInvocationKey(deploymentId, invocation.id, timeoutMs);
      const outcome = await this.#context.engines.apps.invoke({
        deploymentId,
        invocationId: invocation.id,
        entrypoint: deployment.entrypoint_rel_path,
        app: invocation.app_name,
        action: invocation.action_name,
        payload: invocation.payload,
        env: await deployments.environmentOf(deploymentId, key?.key),
        timeoutMs,
        onLog: (line) => this.#log(invocation.id, line),
        signal: controller.signal,
      });
      if (
        outcome.ok &&
        outcome.output !== undefined &&
        outcome.output.length > MAX_INVOCATION_OUTPUT
      ) {
        return await this.#end(invocation.id, {
          status: 'failed',
          status_reason: `The action's result is larger than ${MAX_INVOCATION_OUTPUT} characters of JSON.`,
        });
      }
      return await this.#end(
        invocation.id,
        outcome.ok
          ? {
              status: 'succeeded',
              ...(outcome.output === undefined ? {} : { output: outcome.output }),
            }
          : { status: 'failed', status_reason: outcome.reason },
      );
    } catch (error) {
      this.#context.log.error({ err: error, invocation: queued.id }, 'an invocation failed');
      return await this.#end(queued.id, {
        status: 'failed',
        status_reason:
          error instanceof ServiceError ? error.message : 'The invocation failed unexpectedly.',
      }).catch(() => ({ ...queued, status: 'failed' as const }));
    } finally {
      this.#runs.delete(queued.id);
      this.#context.engines.apps.active.delete(queued.id);
      if (key)
        await (this.deployments as DeploymentModel<I>)
          .retireKey(key.id)
          .catch((error: unknown) =>
            this.#context.log.warn(
              { err: error, invocation: queued.id },
              'an invocation key stays',
            ),
          );
    }
  }

  /** Changes an invocation not ended yet (an ended one is answered as it is). */
  async #move(id: string, change: (current: Invocation) => Invocation): Promise<Invocation> {
    const moved = await this.#context.engines.records.transaction(async ({ invocations }) => {
      const current = await invocations.get(id);
      if (!current) throw notFound('invocation', id);
      if (isEnded(current)) return { invocation: current, isChanged: false };
      const next = change(current);
      await invocations.put(id, next);
      return { invocation: next, isChanged: true };
    });
    if (moved.isChanged) this.#emitState(moved.invocation);
    return moved.invocation;
  }

  /** Ends an invocation as its run ended (unless a PATCH ended it first); its browsers go. */
  async #end(
    id: string,
    end: Pick<Invocation, 'status'> & Partial<Pick<Invocation, 'output' | 'status_reason'>>,
  ): Promise<Invocation> {
    const ended = await this.#move(id, (current) => ({
      ...current,
      ...end,
      finished_at: this.#now(),
    }));
    await this.endBrowsersOf(id);
    return ended;
  }

  #log(id: string, line: string): void {
    const message =
      line.length > MAX_LOG_LINE
        ? `${line.slice(0, MAX_LOG_LINE)} … (line cut at ${MAX_LOG_LINE} characters)`
        : line;
    this.#events.emit(id, { event: 'log', timestamp: this.#now(), message });
  }

  #emitState(invocation: Invocation): void {
    this.#events.emit(invocation.id, {
      event: 'invocation_state',
      timestamp: this.#now(),
      invocation,
    });
  }

  /**
   * The invocation's events so far (its code's console, its states), then each as it comes,
   * until it ends. One this node does not run gives its state alone.
   */
  async *events(id: string, signal: AbortSignal): AsyncGenerator<InvocationEvent, void> {
    const invocation = await this.get(id);
    yield* this.#events.events(id, signal, () => ({
      event: 'invocation_state',
      timestamp: this.#now(),
      invocation,
    }));
  }

  /** One page of the invocations, oldest first; each filter given must match exactly. */
  async page({
    offset,
    limit,
    status,
    app_name,
    action_name,
  }: InvocationListQuery): Promise<Page<Invocation>> {
    const matching = (await this.#records.list()).filter(
      (invocation) =>
        (status === undefined || invocation.status === status) &&
        (app_name === undefined || invocation.app_name === app_name) &&
        (action_name === undefined || invocation.action_name === action_name),
    );
    return pageOf(matching, offset, limit);
  }

  /** One invocation; 404 when there is none. */
  async get(id: string): Promise<Invocation> {
    const invocation = await this.#records.get(id);
    if (!invocation) throw notFound('invocation', id);
    return invocation;
  }

  /** An invocation that may still take browsers: 404 when unknown, 409 when it has ended. */
  async running(id: string): Promise<Invocation> {
    const invocation = await this.get(id);
    if (invocation.finished_at) throw refusals.invocationTakesNoBrowsers(id);
    return invocation;
  }

  /**
   * Ends an invocation: its code stops, its browsers are deleted; 409 when it has ended
   * already. The check and the end are one transaction, so of two ends at once one is 409.
   * `failed` is how a caller cancels.
   */
  async update(id: string, body: UpdateInvocationInput): Promise<Invocation> {
    const ended = await this.#context.engines.records.transaction(async ({ invocations }) => {
      const invocation = await invocations.get(id);
      if (!invocation) throw notFound('invocation', id);
      if (invocation.finished_at) throw refusals.invocationEnded(id, invocation.status);
      const ended: Invocation = {
        ...invocation,
        status: body.status,
        finished_at: this.#now(),
      };
      if (body.output !== undefined) ended.output = body.output;
      if (body.status === 'failed' && ended.status_reason === undefined) {
        ended.status_reason = 'Cancelled.';
      }
      await invocations.put(id, ended);
      return ended;
    });
    this.#emitState(ended);
    this.#runs.get(id)?.controller.abort();
    await this.endBrowsersOf(id);
    return ended;
  }

  /** Cancels every invocation running a deployment's code (the deployment is stopping). */
  async cancelOf(deploymentId: string, reason: string): Promise<void> {
    const ids = [...this.#runs].filter(([, run]) => run.deploymentId === deploymentId);
    await Promise.all(
      ids.map(async ([id, run]) => {
        await this.#end(id, { status: 'failed', status_reason: reason });
        run.controller.abort();
      }),
    );
  }

  /** After a restart: invocations an earlier run left queued or running end failed. */
  async recover(): Promise<void> {
    const { owns = () => true } = this.#context.settings;
    await this.#failOpen(owns, 'The server restarted during the invocation.');
  }

  /**
   * A cluster lost nodes: the invocations they ran (`isOf` picks them by id) fail saying so, and
   * stop counting toward the project's cap. Gives how many.
   */
  endLost(isOf: (id: string) => boolean): Promise<number> {
    return this.#failOpen(isOf, 'The node that ran the invocation was lost.');
  }

  /** Fails every invocation `isOf` picks that is still open and runs nowhere here. */
  async #failOpen(isOf: (id: string) => boolean, reason: string): Promise<number> {
    let failed = 0;
    for (const invocation of await this.#records.list()) {
      if (isEnded(invocation) || this.#runs.has(invocation.id) || !isOf(invocation.id)) continue;
      await this.#end(invocation.id, { status: 'failed', status_reason: reason });
      failed++;
    }
    return failed;
  }

  /** Shutdown: running code stops, its invocations fail saying so. */
  async close(): Promise<void> {
    await Promise.all(
      // Shutting down: an invocation whose record cannot be ended now is found running at the
      // next start, and ended then.
      [...this.#runs.keys()].map((id) =>
        this.#end(id, { status: 'failed', status_reason: 'The server shut down.' }).catch(
          () => undefined,
        ),
      ),
    );
    for (const run of this.#runs.values()) run.controller.abort();
    await Promise.allSettled([...this.#work]);
  }

  /** Seeds an invocation record as given (the fake, whose store writes at once). */
  seed(invocation: Invocation): Promise<void> {
    return this.#records.put(invocation.id, invocation);
  }
}
