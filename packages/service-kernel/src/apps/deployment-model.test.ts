import type { DeploymentEvent } from '@x/types';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../service-error.js';
import { testModel } from '../test-support/memory-engines.js';
import type { ScriptedAppEngine } from '../test-support/scripted-app-engine.js';
import { MAX_OPEN_DEPLOYMENTS } from './deployment-model.js';

const GiB = 1024 ** 3;

const ARCHIVE = new Blob([new Uint8Array([80, 75, 5, 6])]);

function form(overrides: Record<string, unknown> = {}) {
  return {
    file: ARCHIVE,
    entrypoint_rel_path: 'app.ts',
    version: 'latest',
    force: 'false' as const,
    ...overrides,
  };
}

/** Every event of a deployment until its stream ends. */
async function eventsOf(
  model: ReturnType<typeof testModel>['model'],
  id: string,
): Promise<DeploymentEvent[]> {
  const events: DeploymentEvent[] = [];
  for await (const event of model.deployments.events(id, new AbortController().signal)) {
    events.push(event);
  }
  return events;
}

describe('deployments', () => {
  it('queues, installs, finds the apps and runs; env vars are sealed and never answered', async () => {
    const { model, engines } = testModel();
    const queued = await model.deployments.create(
      form({ env_vars: { API_TOKEN: 's3cret', REGION: 'eu' } }),
    );
    expect(queued).toMatchObject({
      status: 'queued',
      version: 'latest',
      entrypoint_rel_path: 'app.ts',
      env_vars: { API_TOKEN: '', REGION: '' },
      source_type: 'file',
    });
    const events = await eventsOf(model, queued.id);
    expect(events.map((event) => event.event)).toEqual([
      'deployment_state',
      'deployment_state',
      'log',
      'app_version_summary',
      'deployment_state',
    ]);
    const states = events.flatMap((event) =>
      event.event === 'deployment_state' ? [event.deployment.status] : [],
    );
    expect(states).toEqual(['queued', 'in_progress', 'running']);
    const running = await model.deployments.get(queued.id);
    expect(running).toMatchObject({ status: 'running', app_name: 'demo' });
    expect(JSON.stringify([running, events])).not.toContain('s3cret');
    const stored = await engines.records.deployments.get(queued.id);
    expect(JSON.stringify(stored)).not.toContain('"s3cret"');
    expect(await model.deployments.environmentOf(queued.id)).toEqual({
      API_TOKEN: 's3cret',
      REGION: 'eu',
    });
    const apps = await model.deployments.apps({ offset: 0, limit: 20 });
    expect(apps.items).toEqual([
      expect.objectContaining({
        app_name: 'demo',
        version: 'latest',
        deployment: queued.id,
        actions: [{ name: 'run' }],
      }),
    ]);
    expect((await model.deployments.appVersion('demo', 'latest')).deployment).toBe(queued.id);
    await expect(model.deployments.appVersion('demo', 'v9')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('fails with the engine reason, or when the code defines no app, removing what it kept', async () => {
    const { model, apps } = testModel();
    apps.outcome = { ok: false, reason: 'npm install failed: E404 left-pad' };
    const first = await model.deployments.create(form());
    const last = (await eventsOf(model, first.id)).at(-1);
    expect(last).toMatchObject({
      event: 'deployment_state',
      deployment: { status: 'failed', status_reason: 'npm install failed: E404 left-pad' },
    });
    expect(apps.removed).toContain(first.id);
    apps.outcome = { ok: true, apps: [] };
    const second = await model.deployments.create(form());
    await eventsOf(model, second.id);
    expect((await model.deployments.get(second.id)).status_reason).toMatch(/defines no app/);
    expect((await model.deployments.apps({ offset: 0, limit: 20 })).items).toEqual([]);
  });

  it('refuses a version deployed already unless forced; forced, the old deployment stops', async () => {
    const { model } = testModel();
    const first = await model.deployments.create(form({ version: 'v1' }));
    await eventsOf(model, first.id);
    const again = await model.deployments.create(form({ version: 'v1' }));
    await eventsOf(model, again.id);
    expect(await model.deployments.get(again.id)).toMatchObject({
      status: 'failed',
      status_reason: expect.stringContaining('force=true'),
    });
    const forced = await model.deployments.create(form({ version: 'v1', force: 'true' }));
    await eventsOf(model, forced.id);
    expect((await model.deployments.get(forced.id)).status).toBe('running');
    expect(await model.deployments.get(first.id)).toMatchObject({
      status: 'stopped',
      status_reason: `Replaced by deployment ${forced.id}.`,
    });
    const versions = (await model.deployments.apps({ offset: 0, limit: 20 })).items;
    expect(versions.map((version) => version.deployment)).toEqual([forced.id]);
    const listed = await model.deployments.page({
      offset: 0,
      limit: 20,
      app_name: 'demo',
      app_version: 'v1',
    });
    expect(listed.items.map((record) => record.id)).toEqual([first.id, again.id, forced.id]);
  });

  it('a delete stops a deploy under way and a running deployment; its apps go', async () => {
    const { model, apps } = testModel();
    apps.hold();
    const held = await model.deployments.create(form());
    const reading = eventsOf(model, held.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await model.deployments.delete(held.id);
    const events = await reading;
    expect(events.at(-1)).toMatchObject({
      deployment: { status: 'stopped', status_reason: 'Deleted.' },
    });
    expect(apps.jobs[0]?.signal.aborted).toBe(true);
    apps.release();
    await model.close();
    expect((await model.deployments.get(held.id)).status).toBe('stopped');
    const { model: other } = testModel();
    const running = await other.deployments.create(form());
    await eventsOf(other, running.id);
    await other.deployments.delete(running.id);
    expect((await other.deployments.get(running.id)).status).toBe('stopped');
    expect((await other.deployments.apps({ offset: 0, limit: 20 })).items).toEqual([]);
    // A second delete changes nothing; an unknown id is 404.
    await other.deployments.delete(running.id);
    await expect(other.deployments.delete('dep_nothing')).rejects.toBeInstanceOf(ServiceError);
  });

  it("drops a deleted deployment's kept events: a late reader gets its state alone", async () => {
    const { model } = testModel();
    const made = await model.deployments.create(form());
    await eventsOf(model, made.id);
    // Ended, its events are kept for a late reader.
    expect((await eventsOf(model, made.id)).map((event) => event.event)).toEqual([
      'deployment_state',
      'deployment_state',
      'log',
      'app_version_summary',
      'deployment_state',
    ]);
    await model.deployments.delete(made.id);
    expect(await eventsOf(model, made.id)).toEqual([
      expect.objectContaining({
        event: 'deployment_state',
        deployment: expect.objectContaining({ status: 'stopped', status_reason: 'Deleted.' }),
      }),
    ]);
  });

  it("drops a failed deployment's kept events too when it is deleted", async () => {
    const { model, apps } = testModel();
    apps.outcome = { ok: false, reason: 'npm install failed: E404 left-pad' };
    const failed = await model.deployments.create(form());
    expect((await eventsOf(model, failed.id)).length).toBeGreaterThan(1);
    await model.deployments.delete(failed.id);
    expect(await eventsOf(model, failed.id)).toEqual([
      expect.objectContaining({
        event: 'deployment_state',
        deployment: expect.objectContaining({ status: 'failed' }),
      }),
    ]);
  });

  it('filters by version only with an app, and a restart fails the deploys it interrupted', async () => {
    const { model, apps, engines } = testModel();
    await expect(
      model.deployments.page({ offset: 0, limit: 20, app_version: 'v1' }),
    ).rejects.toMatchObject({ code: 'bad_request' });
    apps.hold();
    const interrupted = await model.deployments.create(form());
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The same records, read by a new model as after a restart.
    const { ServiceModel } = await import('../service-model.js');
    const restarted = new ServiceModel({ engines, settings: model.context.settings });
    await restarted.deployments.recover();
    expect(await restarted.deployments.get(interrupted.id)).toMatchObject({
      status: 'failed',
      status_reason: expect.stringContaining('restarted'),
    });
    apps.release();
  });

  it('installs two at once; the next wait queued, and one deleted while it waits never runs', async () => {
    const { model, apps } = testModel();
    apps.hold();
    const first = await model.deployments.create(form({ version: 'a' }));
    const second = await model.deployments.create(form({ version: 'b' }));
    const third = await model.deployments.create(form({ version: 'c' }));
    const fourth = await model.deployments.create(form({ version: 'd' }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const statuses = async () =>
      Promise.all(
        [first, second, third, fourth].map(
          async (each) => (await model.deployments.get(each.id)).status,
        ),
      );
    expect(await statuses()).toEqual(['in_progress', 'in_progress', 'queued', 'queued']);
    await model.deployments.delete(third.id);
    apps.release();
    await eventsOf(model, fourth.id);
    expect(await statuses()).toEqual(['running', 'running', 'stopped', 'running']);
    expect(apps.jobs.map((job) => job.deploymentId)).toEqual([first.id, second.id, fourth.id]);
  });

  it("caps a project's open deployments, and the disk its running ones take", async () => {
    const { model, engines } = testModel();
    const apps = engines.apps as ScriptedAppEngine;
    // Each install takes 2 GiB: two fit in the project's 5, a third does not.
    apps.outcome = {
      ok: true,
      apps: [{ name: 'demo', actions: [{ name: 'run' }] }],
      bytes: 2 * GiB,
    };
    const ended: string[] = [];
    for (const version of ['a', 'b', 'c']) {
      const made = await model.deployments.create(form({ version }));
      const events = await eventsOf(model, made.id);
      const last = events.at(-1) as Extract<DeploymentEvent, { event: 'deployment_state' }>;
      ended.push(
        `${last.deployment.status}${last.deployment.status_reason ? `: ${last.deployment.status_reason}` : ''}`,
      );
    }
    expect(ended.slice(0, 2)).toEqual(['running', 'running']);
    expect(ended[2]).toMatch(
      /^failed: The project's deployments would take more than 5368709120 bytes/,
    );
    // Its code is gone with it.
    expect(apps.kept.size).toBe(2);
    apps.outcome = { ok: true, apps: [{ name: 'demo', actions: [{ name: 'run' }] }] };
    for (let i = 2; i < MAX_OPEN_DEPLOYMENTS; i++) {
      const made = await model.deployments.create(form({ version: `v${i}` }));
      await eventsOf(model, made.id);
    }
    await expect(model.deployments.create(form({ version: 'one-more' }))).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/at most 50 deployments open/),
    });
  });
});
