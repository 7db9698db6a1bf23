import type {
  BrowserPool,
  BrowserSession,
  Deployment,
  DeploymentEvent,
  Extension,
  Invocation,
} from '@x/types';
import { zipSync } from 'fflate';
import { type ContractContext, expect } from './context.js';

/** A name no other run uses, so checks can run against a shared service. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Creates a browser for a check; it is deleted afterwards. */
export async function createBrowser(
  context: ContractContext,
  body: Record<string, unknown> = {},
): Promise<BrowserSession> {
  const answer = await context.call('POST', '/browsers', { json: body });
  const session = context.expectSuccess<BrowserSession>(answer, 'browsers.create', 201);
  context.defer(() => context.call('DELETE', `/browsers/${session.session_id}`));
  return session;
}

/** Creates a pool of `size` browsers for a check; it is deleted (with force) afterwards. */
export async function createPool(
  context: ContractContext,
  body: Record<string, unknown> = {},
): Promise<BrowserPool> {
  const answer = await context.call('POST', '/browser_pools', {
    json: { size: 1, name: uniqueName('pool'), ...body },
  });
  const pool = context.expectSuccess<BrowserPool>(answer, 'browserPools.create', 201);
  context.defer(() => context.call('DELETE', `/browser_pools/${pool.id}?force=true`));
  return pool;
}

/** Uploads an archive as an extension; a created one is deleted afterwards. */
export async function uploadExtension(
  context: ContractContext,
  archive: Uint8Array,
  name?: string,
): Promise<{ answer: Awaited<ReturnType<ContractContext['call']>>; extension?: Extension }> {
  const form = new FormData();
  form.set(
    'file',
    new Blob([archive as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
    'extension.zip',
  );
  if (name !== undefined) form.set('name', name);
  const answer = await context.call('POST', '/extensions', { body: form });
  if (answer.status !== 201) return { answer };
  const extension = answer.json as Extension;
  context.defer(() => context.call('DELETE', `/extensions/${extension.id}`));
  return { answer, extension };
}

/**
 * The contract suite's app: no dependencies (a service installs nothing for it), defined in the
 * registry `@x/client/apps`' defineApp keeps, named by its deployment's CONTRACT_APP_NAME.
 * `echo` answers its payload, `fail` throws, `log` writes a console line; every other action
 * waits until its invocation ends (a cancel stops it) or ten minutes pass.
 */
export const CONTRACT_APP_CODE = `const name = process.env.CONTRACT_APP_NAME || 'contract-suite';
const apps = (globalThis[Symbol.for('@x/client.apps')] ??= new Map());
const wait = (context) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, 600_000);
    context.signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(undefined); }, { once: true });
  });
apps.set(name, {
  name,
  actions: new Map([
    ['contract', wait],
    ['build', wait],
    ['ship', wait],
    ['echo', async (_context, payload) => payload],
    ['fail', async () => { throw new Error('contract failure'); }],
    ['log', async () => { console.log('contract line'); return 'logged'; }],
  ]),
});
`;

/** The contract app as a zip: app.js at its root. */
export function contractAppArchive(): Blob {
  const archive = zipSync({ 'app.js': new TextEncoder().encode(CONTRACT_APP_CODE) });
  return new Blob([archive as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
}

/** A deployed contract app: its name and version. */
export interface ContractApp {
  readonly app: string;
  readonly version: string;
  readonly deployment: string;
}

/**
 * Deploys the contract app (as `app`, in the project `headers` name) under a version of its own,
 * and follows it until it runs; it is deleted afterwards.
 */
export async function deployContractApp(
  context: ContractContext,
  options: { readonly app?: string; readonly headers?: Record<string, string> } = {},
): Promise<ContractApp> {
  const app = options.app ?? 'contract-suite';
  const version = uniqueName('v');
  const form = new FormData();
  form.set('file', contractAppArchive(), 'app.zip');
  form.set('entrypoint_rel_path', 'app.js');
  form.set('version', version);
  form.set('env_vars[CONTRACT_APP_NAME]', app);
  const headers = options.headers ?? {};
  const created = context.expectSuccess<Deployment>(
    await context.call('POST', '/deployments', { body: form, headers }),
    'deployments.create',
    201,
  );
  context.defer(() => context.call('DELETE', `/deployments/${created.id}`, { headers }));
  const stream = await context.stream(`/deployments/${created.id}/events`, headers);
  let last: DeploymentEvent | undefined;
  for (;;) {
    const event = (await stream.next()) as DeploymentEvent | undefined;
    if (event === undefined) break;
    last = event;
  }
  expect(
    last?.event === 'deployment_state' && last.deployment.status === 'running',
    `the contract app's deploy ended as ${JSON.stringify(last)}`,
  );
  return { app, version, deployment: created.id };
}

/** Invokes an action of a deployed contract app: the call's answer. */
export function invoke(
  context: ContractContext,
  app: ContractApp,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return context.call('POST', '/invocations', {
    json: {
      app_name: app.app,
      version: app.version,
      action_name: 'contract',
      async: true,
      ...body,
    },
    headers,
  });
}

/**
 * An invocation of the contract app that runs until it is ended (async: answered queued), for a
 * check; it is ended afterwards.
 */
export async function createInvocation(
  context: ContractContext,
  app?: ContractApp,
): Promise<Invocation> {
  const deployed = app ?? (await deployContractApp(context));
  const invocation = context.expectSuccess<Invocation>(
    await invoke(context, deployed),
    'invocations.create',
    202,
  );
  context.defer(() =>
    context.call('PATCH', `/invocations/${invocation.id}`, { json: { status: 'failed' } }),
  );
  return invocation;
}

/** A browser recording: a new browser for the check, and the replay it started at 5 fps. */
export async function startRecording(
  context: ContractContext,
): Promise<{ readonly id: string; readonly replayId: string }> {
  const { session_id: id } = await createBrowser(context);
  const started = context.expectSuccess<{ replay_id: string }>(
    await context.call('POST', `/browsers/${id}/replays`, { json: { framerate: 5 } }),
    'browsers.replays.start',
    201,
  );
  return { id, replayId: started.replay_id };
}

/** Waits until each invocation has left `queued` (within 30 s). */
export async function untilRunning(
  context: ContractContext,
  invocations: readonly Invocation[],
  headers: Record<string, string> = {},
): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (const { id } of invocations) {
    for (;;) {
      const read = context.expectSuccess<Invocation>(
        await context.call('GET', `/invocations/${id}`, { headers }),
        'invocations.get',
        200,
      );
      if (read.status !== 'queued') break;
      expect(Date.now() < deadline, `invocation ${id} stayed queued for 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
