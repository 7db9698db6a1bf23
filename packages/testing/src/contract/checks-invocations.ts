import type { Invocation, InvocationEvent } from '@x/types';
import { type ContractCheck, defineChecks } from './check.js';
import { type ContractContext, expect } from './context.js';
import { createBrowser, createInvocation, deployContractApp, invoke } from './resources.js';

/** An invocation's events, read until its stream ends. */
async function eventsUntilEnd(context: ContractContext, id: string): Promise<InvocationEvent[]> {
  const stream = await context.stream(`/invocations/${id}/events`);
  expect(stream.status === 200, `GET /invocations/${id}/events answered ${stream.status}`);
  const events: InvocationEvent[] = [];
  for (;;) {
    const event = (await stream.next()) as InvocationEvent | undefined;
    if (event === undefined) return events;
    events.push(event);
  }
}

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
  'a sync invocation answers 200 with its output, or failed with the error the code threw': async (
    context,
  ) => {
    const app = await deployContractApp(context);
    const echoed = context.expectSuccess<Invocation>(
      await invoke(context, app, { action_name: 'echo', payload: '{"n":[1,2]}', async: false }),
      'invocations.create',
      200,
    );
    expect(
      echoed.status === 'succeeded' && echoed.output === '{"n":[1,2]}' && echoed.finished_at,
      `echo answered ${JSON.stringify(echoed)}`,
    );
    const failed = context.expectSuccess<Invocation>(
      await invoke(context, app, { action_name: 'fail', async: false }),
      'invocations.create',
      200,
    );
    expect(
      failed.status === 'failed' && (failed.status_reason ?? '').includes('contract failure'),
      `a throw answered ${JSON.stringify(failed)}`,
    );
  },
  "an async invocation is 202 queued; its events carry the code's console and end at its state":
    async (context) => {
      const app = await deployContractApp(context);
      const queued = context.expectSuccess<Invocation>(
        await invoke(context, app, { action_name: 'log' }),
        'invocations.create',
        202,
      );
      expect(queued.status === 'queued', `an async invocation answered ${queued.status}`);
      const events = await eventsUntilEnd(context, queued.id);
      expect(
        events.some((event) => event.event === 'log' && event.message.includes('contract line')),
        `no log event with the console line in ${JSON.stringify(events)}`,
      );
      const last = events.at(-1);
      expect(
        last?.event === 'invocation_state' &&
          last.invocation.status === 'succeeded' &&
          last.invocation.output === '"logged"',
        `the stream ended on ${JSON.stringify(last)}`,
      );
    },
  'a cancel (PATCH failed) stops the code; its stream ends failed': async (context) => {
    const invocation = await createInvocation(context);
    const cancelled = context.expectSuccess<Invocation>(
      await context.call('PATCH', `/invocations/${invocation.id}`, { json: { status: 'failed' } }),
      'invocations.update',
      200,
    );
    expect(cancelled.status === 'failed', `the cancel answered ${cancelled.status}`);
    const last = (await eventsUntilEnd(context, invocation.id)).at(-1);
    expect(
      last?.event === 'invocation_state' && last.invocation.status === 'failed',
      `the stream ended on ${JSON.stringify(last)}`,
    );
  },
  'an unknown app, version or action is 404; a payload that is not JSON and a bad time-out are 400':
    async (context) => {
      const app = await deployContractApp(context);
      for (const body of [
        { app_name: `${app.app}-none` },
        { version: `${app.version}-none` },
        { action_name: 'no-such-action' },
      ]) {
        context.expectError(await invoke(context, app, body), 404, 'not_found');
      }
      context.expectError(
        await invoke(context, app, { action_name: 'echo', payload: '{not json' }),
        400,
        'bad_request',
      );
      context.expectError(
        await invoke(context, app, { async_timeout_seconds: 5 }),
        400,
        'bad_request',
      );
      context.expectError(
        await context.call('GET', '/invocations/inv_nothere/events'),
        404,
        'not_found',
      );
    },
});
