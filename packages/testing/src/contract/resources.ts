import type { BrowserPool, BrowserSession, Extension, Invocation } from '@x/types';
import type { ContractContext } from './context.js';

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

/** Creates an invocation for a check. */
export async function createInvocation(context: ContractContext): Promise<Invocation> {
  const answer = await context.call('POST', '/invocations', {
    json: { action_name: 'contract', app_name: 'contract-suite' },
  });
  return context.expectSuccess<Invocation>(answer, 'invocations.create', 201);
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
