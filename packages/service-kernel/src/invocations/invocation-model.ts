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

  create(body: CreateInvocationInput & Pick<Invocation, 'action_name' | 'app_name' | 'version'>) {
    const invocation: Invocation = {
      id: this.#context.nextId('inv'),
      action_name: body.action_name,
      app_name: body.app_name,
      version: body.version,
      status: 'running',
      started_at: formatTimestamp(this.#context.clock()),
    };
    if (body.payload !== undefined) invocation.payload = body.payload;
    this.#records.put(invocation.id, invocation);
    return invocation;
  }

  /** One page of the invocations, oldest first; each filter given must match exactly. */
  page({ offset, limit, status, app_name, action_name }: InvocationListQuery): Page<Invocation> {
    const matching = this.#records
      .list()
      .filter(
        (invocation) =>
          (status === undefined || invocation.status === status) &&
          (app_name === undefined || invocation.app_name === app_name) &&
          (action_name === undefined || invocation.action_name === action_name),
      );
    return pageOf(matching, offset, limit);
  }

  /** One invocation; 404 when there is none. */
  get(id: string): Invocation {
    const invocation = this.#records.get(id);
    if (!invocation) throw notFound('invocation', id);
    return invocation;
  }

  /** An invocation that may still take browsers: 404 when unknown, 409 when it has ended. */
  running(id: string): Invocation {
    const invocation = this.get(id);
    if (invocation.finished_at) throw refusals.invocationTakesNoBrowsers(id);
    return invocation;
  }

  /** Ends an invocation and deletes its browsers; 409 when it has ended already. */
  async update(id: string, body: UpdateInvocationInput): Promise<Invocation> {
    const invocation = this.get(id);
    if (invocation.finished_at) throw refusals.invocationEnded(id, invocation.status);
    const ended: Invocation = {
      ...invocation,
      status: body.status,
      finished_at: formatTimestamp(this.#context.clock()),
    };
    if (body.output !== undefined) ended.output = body.output;
    this.#records.put(id, ended);
    await this.endBrowsersOf(id);
    return ended;
  }

  /** Seeds an invocation record as given (the fake). */
  seed(invocation: Invocation): void {
    this.#records.put(invocation.id, invocation);
  }
}
