import type { InvocationEvent } from '@x/types';
import { describe, expect, it } from 'vitest';
import { BROWSER, testModel } from '../test-support/memory-engines.js';

const ORIGIN = 'http://localhost';

/** A model with app `demo` (action `run`) deployed as version latest. */
async function deployedModel(options: { maxInvocations?: number } = {}) {
  const test = testModel();
  const model =
    options.maxInvocations === undefined
      ? test.model
      : new (await import('../service-model.js')).ServiceModel({
          engines: test.engines,
          settings: { ...test.model.context.settings, maxInvocations: options.maxInvocations },
        });
  const deployment = await model.deployments.create({
    file: new Blob(['zip']),
    entrypoint_rel_path: 'app.ts',
    version: 'latest',
    force: 'false',
    env_vars: { TOKEN: 'abc' },
  });
  for await (const _ of model.deployments.events(deployment.id, new AbortController().signal));
  return { ...test, model, deployment };
}

const CALL = {
  app_name: 'demo',
  action_name: 'run',
  version: 'latest',
  async: false,
  async_timeout_seconds: 900,
};

async function eventsOf(
  model: Awaited<ReturnType<typeof deployedModel>>['model'],
  id: string,
): Promise<InvocationEvent[]> {
  const events: InvocationEvent[] = [];
  for await (const event of model.invocations.events(id, new AbortController().signal)) {
    events.push(event);
  }
  return events;
}

describe('invocations', () => {
  it('a sync invocation runs the action with its payload and environment and answers the result', async () => {
    const { model, apps } = await deployedModel();
    const { isSync, invocation } = await model.invocations.invoke({ ...CALL, payload: '{"n":1}' });
    expect(isSync).toBe(true);
    expect(invocation).toMatchObject({ status: 'succeeded', output: '{"n":1}' });
    expect(invocation.finished_at).toBeDefined();
    expect(apps.runs[0]).toMatchObject({
      app: 'demo',
      action: 'run',
      env: { TOKEN: 'abc' },
      timeoutMs: 100_000,
    });
    const events = await eventsOf(model, invocation.id);
    expect(events.map((event) => event.event)).toEqual([
      'invocation_state',
      'log',
      'invocation_state',
    ]);
    expect(apps.active.size).toBe(0);
  });

  it('a failing action is failed with its reason; its browsers end with it', async () => {
    const { model, apps } = await deployedModel();
    apps.hold();
    apps.answer = () => ({ ok: false, reason: 'Error: out of stock' });
    const pending = model.invocations.invoke(CALL);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const [running] = (await model.invocations.page({ offset: 0, limit: 10 })).items;
    const browser = await model.browsers.create(
      { ...BROWSER, invocation_id: running?.id as string },
      ORIGIN,
    );
    apps.release();
    const { invocation } = await pending;
    expect(invocation).toMatchObject({ status: 'failed', status_reason: 'Error: out of stock' });
    expect((await model.browsers.get(browser.record.session_id)).deleted_at).toBeDefined();
  });

  it('async answers queued, runs in the background, and a cancel stops the code', async () => {
    const { model, apps } = await deployedModel();
    apps.hold();
    const { isSync, invocation } = await model.invocations.invoke({
      ...CALL,
      async: true,
      async_timeout_seconds: 30,
    });
    expect(isSync).toBe(false);
    expect(invocation.status).toBe('queued');
    const following = eventsOf(model, invocation.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await model.invocations.get(invocation.id)).status).toBe('running');
    expect(apps.runs[0]?.timeoutMs).toBe(30_000);
    const cancelled = await model.invocations.update(invocation.id, { status: 'failed' });
    expect(cancelled).toMatchObject({ status: 'failed', status_reason: 'Cancelled.' });
    expect(apps.runs[0]?.signal.aborted).toBe(true);
    const states = (await following).flatMap((event) =>
      event.event === 'invocation_state' ? [event.invocation.status] : [],
    );
    expect(states).toEqual(['queued', 'running', 'failed']);
    await model.close();
    // The run's own end came after the cancel: it changes nothing.
    expect((await model.invocations.get(invocation.id)).status_reason).toBe('Cancelled.');
  });

  it('refuses an unknown app, version or action (404), a payload not JSON (400), and past the cap (429)', async () => {
    const { model, apps } = await deployedModel({ maxInvocations: 1 });
    await expect(model.invocations.invoke({ ...CALL, app_name: 'nope' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(model.invocations.invoke({ ...CALL, version: 'v9' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(model.invocations.invoke({ ...CALL, action_name: 'fly' })).rejects.toThrow(
      /has no action "fly" \(it has run\)/,
    );
    await expect(model.invocations.invoke({ ...CALL, payload: '{nope' })).rejects.toMatchObject({
      code: 'bad_request',
    });
    apps.hold();
    await model.invocations.invoke({ ...CALL, async: true });
    await expect(model.invocations.invoke(CALL)).rejects.toMatchObject({ code: 'rate_limited' });
    expect((await model.invocations.page({ offset: 0, limit: 10 })).items).toHaveLength(1);
    apps.release();
  });

  it('stopping a deployment fails its running invocations; a restart fails the ones it interrupted', async () => {
    const { model, apps, deployment, engines } = await deployedModel();
    apps.hold();
    const { invocation } = await model.invocations.invoke({ ...CALL, async: true });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await model.deployments.delete(deployment.id);
    expect(await model.invocations.get(invocation.id)).toMatchObject({
      status: 'failed',
      status_reason: 'Its deployment stopped: Deleted.',
    });
    await expect(model.invocations.invoke(CALL)).rejects.toMatchObject({ code: 'not_found' });
    await engines.records.invocations.put('inv_left', {
      id: 'inv_left',
      app_name: 'demo',
      action_name: 'run',
      version: 'latest',
      status: 'running',
      started_at: '2026-11-22T10:00:00.000Z',
    });
    await model.invocations.recover();
    expect(await model.invocations.get('inv_left')).toMatchObject({
      status: 'failed',
      status_reason: 'The server restarted during the invocation.',
    });
    apps.release();
  });
});
