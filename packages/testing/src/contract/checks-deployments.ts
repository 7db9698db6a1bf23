import type { Deployment, DeploymentEvent } from '@x/types';
import { zipSync } from 'fflate';
import { type ContractCheck, defineChecks } from './check.js';
import { type ContractContext, expect } from './context.js';

const encoder = new TextEncoder();

/** A zip of `files` (name → text). */
function zipOf(files: Record<string, string>): Blob {
  const entries = Object.fromEntries(
    Object.entries(files).map(([name, text]) => [name, encoder.encode(text)]),
  );
  return new Blob([zipSync(entries) as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
}

/** Posts a deploy of `archive` with `fields` (entrypoint app.ts unless told otherwise). */
async function postDeploy(
  context: ContractContext,
  archive: Blob,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  form.set('file', archive, 'app.zip');
  form.set('entrypoint_rel_path', 'app.ts');
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const answer = await context.call('POST', '/deployments', { body: form });
  if (answer.status === 201) {
    const { id } = answer.json as Deployment;
    context.defer(() => context.call('DELETE', `/deployments/${id}`));
  }
  return answer;
}

/** A deploy that is answered 201 queued: its record. */
async function deployed(
  context: ContractContext,
  archive: Blob,
  fields: Record<string, string> = {},
): Promise<Deployment> {
  const deployment = context.expectSuccess<Deployment>(
    await postDeploy(context, archive, fields),
    'deployments.create',
    201,
  );
  expect(deployment.status === 'queued', `a new deployment is ${deployment.status}, not queued`);
  return deployment;
}

/** A deployment's events, read until its stream ends (at a final state). */
async function eventsUntilEnd(context: ContractContext, id: string): Promise<DeploymentEvent[]> {
  const stream = await context.stream(`/deployments/${id}/events`);
  expect(stream.status === 200, `GET /deployments/${id}/events answered ${stream.status}`);
  const events: DeploymentEvent[] = [];
  for (;;) {
    const event = (await stream.next()) as DeploymentEvent | undefined;
    if (event === undefined) return events;
    events.push(event);
    expect(events.length <= 2_000, 'a deployment stream gave more than 2,000 events');
  }
}

/** The final deployment a stream ended on: the last event, a deployment_state. */
function finalState(events: readonly DeploymentEvent[]): Deployment {
  const last = events.at(-1);
  expect(
    last?.event === 'deployment_state',
    `a deployment stream ended on ${JSON.stringify(last)}, not a deployment_state`,
  );
  return last.deployment;
}

/** Deploys `files` and follows it: the deployment it ended as, failed with a reason. */
async function failedDeploy(context: ContractContext, files: Record<string, string>) {
  const deployment = await deployed(context, zipOf(files));
  const ended = finalState(await eventsUntilEnd(context, deployment.id));
  expect(
    ended.status === 'failed' && typeof ended.status_reason === 'string',
    `the deploy ended ${ended.status} (${ended.status_reason ?? 'no reason'}), not failed with a reason`,
  );
  const read = context.expectSuccess<Deployment>(
    await context.call('GET', `/deployments/${deployment.id}`),
    'deployments.get',
    200,
  );
  expect(read.status === 'failed', `GET after the stream ended reads ${read.status}`);
  return ended;
}

/** Deployments and the app versions they bring. */
export const deploymentChecks: readonly ContractCheck[] = defineChecks('deployments', {
  'a deploy is answered queued; its env vars are names only; its stream ends at failed when the entrypoint is missing':
    async (context) => {
      const deployment = await deployed(context, zipOf({ 'main.ts': 'export {};' }), {
        version: 'contract-1',
        'env_vars[CONTRACT_SECRET]': 'never-answered-4f2a',
      });
      expect(
        JSON.stringify(deployment.env_vars) === '{"CONTRACT_SECRET":""}',
        `env_vars read ${JSON.stringify(deployment.env_vars)}`,
      );
      expect(
        /^[0-9a-f]{64}$/.test(deployment.source_checksum),
        `source_checksum is ${deployment.source_checksum}`,
      );
      const events = await eventsUntilEnd(context, deployment.id);
      const states = events.flatMap((event) =>
        event.event === 'deployment_state' ? [event.deployment.status] : [],
      );
      expect(states[0] === 'queued', `the stream's first state is ${states[0]}`);
      const ended = finalState(events);
      expect(
        ended.status === 'failed' && /entrypoint/i.test(ended.status_reason ?? ''),
        `a missing entrypoint ended ${ended.status}: ${ended.status_reason}`,
      );
      expect(
        !JSON.stringify(events).includes('never-answered-4f2a'),
        "an env var's value came back in the events",
      );
    },
  'a zip slip, code that defines no app and code that throws as it loads each end failed': async (
    context,
  ) => {
    await failedDeploy(context, { 'app.ts': 'export {};', '../outside.txt': 'x' });
    const none = await failedDeploy(context, { 'app.ts': 'export const nothing = 1;' });
    expect(/no app/i.test(none.status_reason ?? ''), `no app: ${none.status_reason}`);
    const thrown = await failedDeploy(context, {
      'app.ts': 'throw new Error("contract-load-failure");',
    });
    expect(
      (thrown.status_reason ?? '').includes('contract-load-failure'),
      `a throw at load: ${thrown.status_reason}`,
    );
    const apps = context.expectSuccess<unknown[]>(
      await context.call('GET', '/apps?version=contract-never'),
      'apps.list',
      200,
    );
    expect(apps.length === 0, 'GET /apps lists a version no deploy brought');
  },
  'what is not a zip is refused at the deploy, with a reason': async (context) => {
    const deployment = await deployed(context, new Blob(['not a zip']));
    const ended = finalState(await eventsUntilEnd(context, deployment.id));
    expect(
      ended.status === 'failed' && /zip/i.test(ended.status_reason ?? ''),
      `a text file ended ${ended.status}: ${ended.status_reason}`,
    );
  },
  'bad fields are 400 and keep nothing; an unknown deployment is 404': async (context) => {
    const before = context.expectSuccess<Deployment[]>(
      await context.call('GET', '/deployments?limit=100'),
      'deployments.list',
      200,
    );
    context.expectError(
      await postDeploy(context, zipOf({ 'app.ts': 'export {};' }), { 'env_vars[1BAD]': 'x' }),
      400,
      'bad_request',
    );
    const noFile = new FormData();
    noFile.set('entrypoint_rel_path', 'app.ts');
    context.expectError(
      await context.call('POST', '/deployments', { body: noFile }),
      400,
      'bad_request',
    );
    context.expectError(
      await context.call('GET', '/deployments?app_version=v1'),
      400,
      'bad_request',
    );
    const after = context.expectSuccess<Deployment[]>(
      await context.call('GET', '/deployments?limit=100'),
      'deployments.list',
      200,
    );
    expect(after.length === before.length, 'a refused deploy was kept');
    for (const [method, path] of [
      ['GET', '/deployments/dep_nothere'],
      ['DELETE', '/deployments/dep_nothere'],
      ['GET', '/deployments/dep_nothere/events'],
    ] as const) {
      context.expectError(await context.call(method, path), 404, 'not_found');
    }
  },
  'deleting an ended deployment keeps it as it ended': async (context) => {
    const ended = await failedDeploy(context, { 'other.ts': 'export {};' });
    const deleted = await context.call('DELETE', `/deployments/${ended.id}`);
    expect(deleted.status === 204, `DELETE answered ${deleted.status}`);
    const read = context.expectSuccess<Deployment>(
      await context.call('GET', `/deployments/${ended.id}`),
      'deployments.get',
      200,
    );
    expect(read.status === 'failed', `a deleted failed deployment reads ${read.status}`);
  },
});
