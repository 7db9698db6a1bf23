import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser, createInvocation } from './resources.js';

/** Invocations, with their browsers (4.5). */
export const invocationChecks: readonly ContractCheck[] = defineChecks('invocations', {
  'list browsers (4.5) gives the invocation’s active browsers, oldest first': async (context) => {
    const invocation = await createInvocation(context);
    expect(
      invocation.status === 'running' || invocation.status === 'queued',
      `a new invocation is ${invocation.status}`,
    );
    const first = await createBrowser(context, { invocation_id: invocation.id });
    const second = await createBrowser(context, { invocation_id: invocation.id });
    await createBrowser(context);
    const listed = context.expectSuccess<{ browsers: { session_id: string }[] }>(
      await context.call('GET', `/invocations/${invocation.id}/browsers`),
      'invocations.listBrowsers',
      200,
    );
    const ids = listed.browsers.map((browser) => browser.session_id);
    expect(
      ids.length === 2 && ids[0] === first.session_id && ids[1] === second.session_id,
      `listed ${ids.join(', ')}`,
    );
  },
  'an unknown invocation is 404': async (context) => {
    context.expectError(
      await context.call('GET', '/invocations/inv_nothere/browsers'),
      404,
      'not_found',
    );
    context.expectError(await context.call('GET', '/invocations/inv_nothere'), 404, 'not_found');
  },
  'ending an invocation deletes its browsers; ending it again is 409': async (context) => {
    const invocation = await createInvocation(context);
    const browser = await createBrowser(context, { invocation_id: invocation.id });
    const ended = context.expectSuccess<{ status: string; finished_at?: string }>(
      await context.call('PATCH', `/invocations/${invocation.id}`, {
        json: { status: 'succeeded' },
      }),
      'invocations.update',
      200,
    );
    expect(
      ended.status === 'succeeded' && ended.finished_at,
      `the ended invocation reads ${JSON.stringify(ended)}`,
    );
    const listed = context.expectSuccess<{ browsers: unknown[] }>(
      await context.call('GET', `/invocations/${invocation.id}/browsers`),
      'invocations.listBrowsers',
      200,
    );
    expect(listed.browsers.length === 0, 'the ended invocation still lists browsers');
    const gone = context.expectSuccess<{ deleted_at?: string }>(
      await context.call('GET', `/browsers/${browser.session_id}`),
      'browsers.get',
      200,
    );
    expect(gone.deleted_at, 'the invocation’s browser was not deleted');
    context.expectError(
      await context.call('PATCH', `/invocations/${invocation.id}`, { json: { status: 'failed' } }),
      409,
      'conflict',
    );
    context.expectError(
      await context.call('POST', '/browsers', { json: { invocation_id: invocation.id } }),
      409,
      'conflict',
    );
  },
  'delete browsers ends every running browser of the invocation and no other': async (context) => {
    const invocation = await createInvocation(context);
    const first = await createBrowser(context, { invocation_id: invocation.id });
    const second = await createBrowser(context, { invocation_id: invocation.id });
    const other = await createBrowser(context);
    const answer = await context.call('DELETE', `/invocations/${invocation.id}/browsers`);
    expect(answer.status === 204, `${answer.call}: expected 204, got ${answer.status}`);
    for (const browser of [first, second]) {
      const read = context.expectSuccess<{ deleted_at?: string }>(
        await context.call('GET', `/browsers/${browser.session_id}`),
        'browsers.get',
        200,
      );
      expect(read.deleted_at, `${browser.session_id} of the invocation still runs`);
    }
    const kept = context.expectSuccess<{ deleted_at?: string }>(
      await context.call('GET', `/browsers/${other.session_id}`),
      'browsers.get',
      200,
    );
    expect(kept.deleted_at === undefined, 'a browser of no invocation was deleted');
    // The invocation goes on: it may start new browsers.
    const running = context.expectSuccess<{ status: string }>(
      await context.call('GET', `/invocations/${invocation.id}`),
      'invocations.get',
      200,
    );
    expect(running.status !== 'failed' && running.status !== 'succeeded', 'the invocation ended');
    context.expectError(
      await context.call('DELETE', '/invocations/inv_nothere/browsers'),
      404,
      'not_found',
    );
  },
});
