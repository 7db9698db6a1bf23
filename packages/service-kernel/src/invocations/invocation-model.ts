import {
  type CreateInvocationInput,
  formatTimestamp,
  type Invocation,
  type InvocationListQuery,
  type Page,
  pageOf,
  type UpdateInvocationInput,
} from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';

/** Every rule of invocations: created running, ended once, ending deletes their browsers. */
export class InvocationModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  /** Ends the live browsers of an invocation (the browser model, set once both exist). */
  endBrowsersOf: (invocationId: string) => Promise<void> = async () => undefined;

  constructor(context: ModelContext<I>) {
    this.#context = context;
  }

  get #records() {
    return this.#context.engines.records.invocations;
  }

  async create(
    body: CreateInvocationInput & Pick<Invocation, 'action_name' | 'app_name' | 'version'>,
  ): Promise<Invocation> {
    const invocation: Invocation = {
      id: this.#context.nextId('inv'),
      action_name: body.action_name,
      app_name: body.app_name,
      version: body.version,
      status: 'running',
      started_at: formatTimestamp(this.#context.clock()),
    };
    if (body.payload !== undefined) invocation.payload = body.payload;
    const cap = this.#context.quota.invocations();
    if (cap === undefined) {
      await this.#records.put(invocation.id, invocation);
      return invocation;
    }
    // Counted and stored in one transaction: two creates at once cannot both take the last place.
    await this.#context.engines.records.transaction(async ({ invocations }) => {
      const running = (await invocations.list()).filter((each) => each.status === 'running');
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
    return invocation;
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
   * Ends an invocation and deletes its browsers; 409 when it has ended already. The check and
   * the end are one transaction, so of two ends at once one is 409.
   */
  async update(id: string, body: UpdateInvocationInput): Promise<Invocation> {
    const ended = await this.#context.engines.records.transaction(async ({ invocations }) => {
      const invocation = await invocations.get(id);
      if (!invocation) throw notFound('invocation', id);
      if (invocation.finished_at) throw refusals.invocationEnded(id, invocation.status);
      const ended: Invocation = {
        ...invocation,
        status: body.status,
        finished_at: formatTimestamp(this.#context.clock()),
      };
      if (body.output !== undefined) ended.output = body.output;
      await invocations.put(id, ended);
      return ended;
    });
    await this.endBrowsersOf(id);
    return ended;
  }

  /** Seeds an invocation record as given (the fake, whose store writes at once). */
  seed(invocation: Invocation): Promise<void> {
    return this.#records.put(invocation.id, invocation);
  }
}
