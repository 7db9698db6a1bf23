import type { AppVersion, Deployment, DeploymentEvent } from '@x/types';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { apiOf } from '../test-support/api.js';
import { fakeService } from '../test-support/fakes.js';
import { FakeAppEngine } from './apps/fake-app-engine.js';

const encoder = new TextEncoder();

function zipOf(files: Record<string, string>): Blob {
  return new Blob([
    zipSync(
      Object.fromEntries(Object.entries(files).map(([name, text]) => [name, encoder.encode(text)])),
    ) as Uint8Array<ArrayBuffer>,
  ]);
}

/** A Kernel app as its users write it (TypeScript), importing the SDK the project has. */
const KERNEL_APP = `
import { Kernel, type KernelContext } from '@onkernel/sdk';
const kernel = new Kernel();
kernel.app('fake-greeter').action('hello', async (_ctx: KernelContext, payload?: { name: string }) => \`hi \${payload?.name}\`);
console.log('key given', process.env.KERNEL_API_KEY === undefined ? 'no' : 'yes');
`;

/** An app defined as `@x/client/apps`' defineApp defines it: in the global registry. */
const CLIENT_APP = `
const registry = (globalThis[Symbol.for('@x/client.apps')] ??= new Map());
registry.set('fake-client', { name: 'fake-client', actions: new Map([['run', async () => 1]]) });
`;

async function deploy(
  fake: ReturnType<typeof fakeService>,
  files: Record<string, string>,
  version: string,
) {
  const api = apiOf(fake);
  const form = new FormData();
  form.set('file', zipOf(files), 'app.zip');
  form.set('entrypoint_rel_path', 'app.ts');
  form.set('version', version);
  const created = await api.call('POST', '/deployments', { body: form });
  expect(created.status).toBe(201);
  const { id } = created.json as Deployment;
  const stream = await api.stream(`/deployments/${id}/events`);
  const events: DeploymentEvent[] = [];
  for (let event = await stream.next(); event; event = await stream.next()) {
    events.push(event as DeploymentEvent);
  }
  return { id, events, api };
}

describe('deployments on the fake', () => {
  it('load a Kernel app in-process and list its actions; the same app deploys again as another version', async () => {
    const fake = fakeService();
    try {
      const first = await deploy(fake, { 'app.ts': KERNEL_APP }, 'v1');
      expect(first.events.at(-1)).toMatchObject({
        deployment: { status: 'running', app_name: 'fake-greeter' },
      });
      const second = await deploy(fake, { 'app.ts': KERNEL_APP }, 'v2');
      expect(second.events.at(-1)).toMatchObject({ deployment: { status: 'running' } });
      const apps = (await first.api.call('GET', '/apps?app_name=fake-greeter'))
        .json as AppVersion[];
      expect(apps.map((app) => [app.version, app.actions])).toEqual([
        ['v1', [{ name: 'hello' }]],
        ['v2', [{ name: 'hello' }]],
      ]);
    } finally {
      await fake.close();
    }
  });

  it('find apps defined with @x/client/apps, without touching the registry of the process', async () => {
    const fake = fakeService();
    try {
      const outer = (globalThis as Record<symbol, unknown>)[Symbol.for('@x/client.apps')];
      const { events } = await deploy(fake, { 'app.ts': CLIENT_APP }, 'v1');
      expect(events).toContainEqual(
        expect.objectContaining({
          event: 'app_version_summary',
          app_name: 'fake-client',
          actions: [{ name: 'run' }],
        }),
      );
      expect((globalThis as Record<symbol, unknown>)[Symbol.for('@x/client.apps')]).toBe(outer);
      // The same app again in another deployment is no clash: each loads on its own.
      const again = await deploy(fake, { 'app.ts': CLIENT_APP }, 'v2');
      expect(again.events.at(-1)).toMatchObject({ deployment: { status: 'running' } });
    } finally {
      await fake.close();
    }
  });
});

describe("the fake's app engine", () => {
  it('answers a run cancelled before it starts at once, running nothing', async () => {
    const engine = new FakeAppEngine();
    const controller = new AbortController();
    controller.abort();
    const outcome = await engine.invoke({
      deploymentId: 'dep_none',
      invocationId: 'inv_1',
      entrypoint: 'app.js',
      app: 'a',
      action: 'b',
      env: {},
      timeoutMs: 60_000,
      onLog: () => undefined,
      signal: controller.signal,
    });
    expect(outcome).toEqual({ ok: false, reason: 'Cancelled.' });
    await engine.close();
  });
});
