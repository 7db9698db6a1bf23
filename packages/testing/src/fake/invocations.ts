import { notFound, ServiceError } from '@x/service-kernel';
import { formatTimestamp, type Invocation } from '@x/types';
import { deleteBrowser, liveBrowsers, sessionRecord } from './browsers.js';
import type { HandlerTable } from './handler-types.js';
import type { FakeRuntime } from './runtime.js';

function findInvocation(runtime: FakeRuntime, id: string): Invocation {
  const invocation = runtime.state.invocations.get(id);
  if (!invocation) throw notFound('invocation', id);
  return invocation;
}

/** Handlers of the invocation operations. */
export const invocationHandlers: Pick<
  HandlerTable,
  'invocations.create' | 'invocations.get' | 'invocations.update' | 'invocations.listBrowsers'
> = {
  'invocations.create': ({ runtime, body }) => {
    const invocation: Invocation = {
      id: runtime.nextId('inv'),
      action_name: body.action_name,
      app_name: body.app_name,
      version: body.version,
      status: 'running',
      started_at: formatTimestamp(runtime.clock()),
    };
    if (body.payload !== undefined) invocation.payload = body.payload;
    runtime.state.invocations.set(invocation.id, invocation);
    return { status: 201, json: invocation };
  },
  'invocations.get': ({ runtime, params }) => ({
    status: 200,
    json: findInvocation(runtime, params.id as string),
  }),
  'invocations.update': ({ runtime, params, body }) => {
    const invocation = findInvocation(runtime, params.id as string);
    if (invocation.finished_at) {
      throw new ServiceError(
        'conflict',
        `Invocation "${invocation.id}" has already ended (${invocation.status}).`,
      );
    }
    invocation.status = body.status;
    invocation.finished_at = formatTimestamp(runtime.clock());
    if (body.output !== undefined) invocation.output = body.output;
    for (const browser of liveBrowsers(runtime)) {
      if (browser.session.invocation_id === invocation.id) deleteBrowser(runtime, browser);
    }
    return { status: 200, json: invocation };
  },
  'invocations.listBrowsers': ({ runtime, params }) => {
    const invocation = findInvocation(runtime, params.id as string);
    const browsers = liveBrowsers(runtime)
      .filter((browser) => browser.session.invocation_id === invocation.id)
      .map((browser) => sessionRecord(runtime, browser));
    return { status: 200, json: { browsers } };
  },
};
