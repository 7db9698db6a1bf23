import type { DatabaseSync } from 'node:sqlite';
import { createIdGenerator, notFound, ServiceError } from '@x/service-kernel';
import {
  type CreateInvocationInput,
  formatTimestamp,
  type Invocation,
  type UpdateInvocationInput,
} from '@x/types';
import type { BrowserService } from '../browsers/browser-service.js';

const nextId = createIdGenerator();

/** Invocations of apps' actions, kept in the store; ending one deletes its browsers. */
export class InvocationService {
  readonly #database: DatabaseSync;
  readonly #browsers: BrowserService;

  constructor(database: DatabaseSync, browsers: BrowserService) {
    this.#database = database;
    this.#browsers = browsers;
  }

  create(
    body: Required<Pick<CreateInvocationInput, 'action_name' | 'app_name' | 'version'>> &
      CreateInvocationInput,
  ): Invocation {
    const invocation: Invocation = {
      id: nextId('inv'),
      action_name: body.action_name,
      app_name: body.app_name,
      version: body.version,
      status: 'running',
      started_at: formatTimestamp(new Date()),
    };
    if (body.payload !== undefined) invocation.payload = body.payload;
    this.#database
      .prepare('INSERT INTO invocations (id, record, created_at) VALUES (?, ?, ?)')
      .run(invocation.id, JSON.stringify(invocation), invocation.started_at);
    return invocation;
  }

  /** One invocation; 404 when there is none. */
  get(id: string): Invocation {
    const row = this.#database.prepare('SELECT record FROM invocations WHERE id = ?').get(id) as
      | { record: string }
      | undefined;
    if (!row) throw notFound('invocation', id);
    return JSON.parse(row.record) as Invocation;
  }

  /** An invocation that may still take browsers: 404 when unknown, 409 when it has ended. */
  running(id: string): Invocation {
    const invocation = this.get(id);
    if (invocation.finished_at) {
      throw new ServiceError('conflict', `Invocation "${id}" has ended; it takes no new browsers.`);
    }
    return invocation;
  }

  /** Ends an invocation and deletes its browsers; 409 when it has ended already. */
  async update(id: string, body: UpdateInvocationInput): Promise<Invocation> {
    const invocation = this.get(id);
    if (invocation.finished_at) {
      throw new ServiceError(
        'conflict',
        `Invocation "${id}" has already ended (${invocation.status}).`,
      );
    }
    const ended: Invocation = {
      ...invocation,
      status: body.status,
      finished_at: formatTimestamp(new Date()),
    };
    if (body.output !== undefined) ended.output = body.output;
    this.#database
      .prepare('UPDATE invocations SET record = ? WHERE id = ?')
      .run(JSON.stringify(ended), id);
    await Promise.all(
      this.#browsers.list(id).map((browser) => this.#browsers.delete(browser.session_id)),
    );
    return ended;
  }
}
