import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatNetworkEntry } from '@x/types';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { registryNetworks } from '../test-support/app-runners.js';
import { openEventStream } from '../test-support/event-stream.js';
import {
  jsonCaller,
  TEST_ALLOW_NETWORKS,
  TEST_TOKEN,
  useTestServer,
} from '../test-support/servers.js';

/** An app written for the public Kernel app framework, TypeScript as its users write it. */
const KERNEL_APP = `
import { Kernel, type KernelContext } from '@onkernel/sdk';
const kernel = new Kernel();
const app = kernel.app('greeter');
app.action('hello', async (_ctx: KernelContext, payload?: { name: string }) => \`hi \${payload?.name}\`);
app.action('bye', async (_ctx: KernelContext) => 'bye');
console.log('loaded with', Object.keys(process.env).filter((name) => name === 'GREETING').join());
// The key minted for the deployment reaches the API at the address given.
const answer = await fetch(\`\${process.env.KERNEL_BASE_URL}/browsers\`, {
  headers: { authorization: \`Bearer \${process.env.KERNEL_API_KEY}\` },
});
console.log('api answered', answer.status, process.env.XB_TOKEN === process.env.KERNEL_API_KEY);
`;

const KERNEL_PACKAGE = JSON.stringify({
  name: 'greeter',
  type: 'module',
  dependencies: { '@onkernel/sdk': '0.84.0' },
});

const encoder = new TextEncoder();

function zip(files: Record<string, string>): Blob {
  const entries = Object.fromEntries(
    Object.entries(files).map(([name, text]) => [name, encoder.encode(text)]),
  );
  return new Blob([zipSync(entries) as Uint8Array<ArrayBuffer>]);
}

/**
 * Code that defines its apps as @x/client/apps does, with nothing to install: `app` with an
 * action `run` answering at once and `hold` waiting until it is ended. `before` runs first.
 */
function bareApp(app: string, before = ''): string {
  return `${before}
const apps = ((globalThis as Record<symbol, unknown>)[Symbol.for('@x/client.apps')] ??= new Map()) as Map<string, unknown>;
apps.set('${app}', {
  name: '${app}',
  actions: new Map<string, () => Promise<unknown>>([
    ['run', async () => 'done'],
    ['hold', () => new Promise(() => undefined)],
  ]),
});
export {};
`;
}

// The registry is where npm finds it on this host: opened to installs as an operator would.
// Four invocations at once, so that one project can fill what it may of them quickly.
const env: Record<string, string> = { XB_MAX_INVOCATIONS: '4' };
beforeAll(async () => {
  const registry = (await registryNetworks()).map(formatNetworkEntry);
  env.XB_ALLOW_NETWORKS = [TEST_ALLOW_NETWORKS, ...registry].join(',');
});
const server = useTestServer(env);
const call = jsonCaller(() => server.server.url);

interface DeploymentRecord {
  id: string;
  status: string;
  status_reason?: string;
  app_name?: string;
  env_vars: Record<string, string>;
  source_checksum: string;
}

/** Deploys `archive`: the 201 record. */
async function deploy(
  archive: Blob,
  fields: Record<string, string> = {},
  token = TEST_TOKEN,
): Promise<{ status: number; json: DeploymentRecord }> {
  const form = new FormData();
  form.set('file', archive, 'app.zip');
  form.set('entrypoint_rel_path', 'app.ts');
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const response = await fetch(`${server.server.url}/deployments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, json: (await response.json()) as DeploymentRecord };
}

/** Every event of a deployment's stream, parsed, until the stream ends. */
async function followed(id: string, token = TEST_TOKEN): Promise<Record<string, unknown>[]> {
  const stream = await openEventStream(
    `${server.server.url}/deployments/${id}/events`,
    { authorization: `Bearer ${token}` },
    120_000,
  );
  expect(stream.status).toBe(200);
  const events: Record<string, unknown>[] = [];
  for (let frame = await stream.next(); frame; frame = await stream.next()) {
    events.push(JSON.parse(frame.data) as Record<string, unknown>);
  }
  return events;
}

/** Nothing of a deployment is left on disk: no archive, no installed folder, no sandbox home. */
function expectNothingLeftOf(id: string): void {
  const deployments = join(server.dataDir, 'deployments');
  expect(readdirSync(deployments).filter((name) => name.startsWith(id))).toEqual([]);
  const instances = join(server.dataDir, 'instances');
  if (existsSync(instances)) {
    expect(readdirSync(instances).filter((name) => name.startsWith(id))).toEqual([]);
  }
}

describe('deployments on the server', () => {
  it('installs a Kernel app from the registry, finds its actions, follows to running; env vars stay sealed', async () => {
    const created = await deploy(zip({ 'package.json': KERNEL_PACKAGE, 'app.ts': KERNEL_APP }), {
      version: 'v1',
      'env_vars[GREETING]': 'top-secret-value',
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'queued', env_vars: { GREETING: '' } });
    expect(created.json.source_checksum).toMatch(/^[0-9a-f]{64}$/);
    const events = await followed(created.json.id);
    const states = events.flatMap((event) =>
      event.event === 'deployment_state' ? [(event.deployment as DeploymentRecord).status] : [],
    );
    expect([states, JSON.stringify(events.at(-1))]).toEqual([
      ['queued', 'in_progress', 'running'],
      expect.anything(),
    ]);
    const logs = events.filter((event) => event.event === 'log').map((event) => event.message);
    // The code loaded with its environment (the name printed, never the value).
    expect(logs).toContain('loaded with GREETING');
    expect(logs).toContain('api answered 200 true');
    // That key was the deploy's own, scoped to its project; it stopped with the deploy.
    const keyName = encodeURIComponent(`deployment ${created.json.id}`);
    expect((await call<unknown[]>('GET', `/org/api_keys?name=${keyName}`)).json).toEqual([]);
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'app_version_summary',
        app_name: 'greeter',
        version: 'v1',
        actions: [{ name: 'hello' }, { name: 'bye' }],
      }),
    );
    expect(JSON.stringify(events)).not.toContain('top-secret-value');
    const got = await call<DeploymentRecord>('GET', `/deployments/${created.json.id}`);
    expect(got.json).toMatchObject({ status: 'running', app_name: 'greeter' });
    const apps = await call<{ app_name: string; deployment: string }[]>('GET', '/apps');
    expect(apps.json).toEqual([
      expect.objectContaining({ app_name: 'greeter', version: 'v1', deployment: created.json.id }),
    ]);
    const listed = await call<DeploymentRecord[]>('GET', '/deployments?app_name=greeter');
    expect(listed.json.map((record) => record.id)).toEqual([created.json.id]);
    expect(existsSync(join(server.dataDir, 'deployments', created.json.id, 'app.ts'))).toBe(true);

    // Stopped: its app can no longer be found, its code is gone.
    expect((await call('DELETE', `/deployments/${created.json.id}`)).status).toBe(204);
    expect(
      (await call<DeploymentRecord>('GET', `/deployments/${created.json.id}`)).json,
    ).toMatchObject({ status: 'stopped' });
    expect((await call<unknown[]>('GET', '/apps')).json).toEqual([]);
    expect((await call<unknown[]>('GET', `/org/api_keys?name=${keyName}`)).json).toEqual([]);
    expectNothingLeftOf(created.json.id);
  }, 180_000);

  it("gives each invocation a key of its own that cannot deploy, and stops with the deployer's key", async () => {
    // The action reports what its key may do, then keeps calling until its key stops working.
    const app = `
import { Kernel } from '@onkernel/sdk';
const app = new Kernel().app('keys');
const api = (method: string, path: string, body?: unknown) =>
  fetch(\`\${process.env.KERNEL_BASE_URL}\${path}\`, {
    method,
    headers: { authorization: \`Bearer \${process.env.KERNEL_API_KEY}\`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((answer) => answer.status);
const refusal = async (answer: Response) => ({
  status: answer.status,
  message: ((await answer.json()) as { message?: string }).message,
});
app.action('probe', async (_ctx: unknown) => {
  const form = new FormData();
  form.set('file', new Blob(['x']), 'app.zip');
  form.set('entrypoint_rel_path', 'app.ts');
  const deploy = await fetch(\`\${process.env.KERNEL_BASE_URL}/deployments\`, {
    method: 'POST',
    headers: { authorization: \`Bearer \${process.env.KERNEL_API_KEY}\` },
    body: form,
  }).then(refusal);
  const keys = await fetch(\`\${process.env.KERNEL_BASE_URL}/org/api_keys\`, {
    method: 'POST',
    headers: { authorization: \`Bearer \${process.env.KERNEL_API_KEY}\`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'more' }),
  }).then(refusal);
  return { key: process.env.KERNEL_API_KEY, browsers: await api('GET', '/browsers'), deploy, keys };
});
app.action('hold', async (_ctx: unknown) => {
  const seen: number[] = [];
  for (const until = Date.now() + 30_000; Date.now() < until; ) {
    const status = await api('GET', '/browsers');
    if (seen.length === 0) console.log('first answer', status);
    if (seen.at(-1) !== status) seen.push(status);
    if (status !== 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return seen;
});
`;
    const deployer = await call<{ id: string; key: string }>('POST', '/org/api_keys', {
      name: 'deployer',
      project_id: 'default',
    });
    expect(deployer.status).toBe(201);
    const created = await deploy(
      zip({ 'package.json': KERNEL_PACKAGE.replace('greeter', 'keys'), 'app.ts': app }),
      { version: 'keys' },
      deployer.json.key,
    );
    expect(created.status).toBe(201);
    expect((await followed(created.json.id)).at(-1)).toMatchObject({
      deployment: expect.objectContaining({ status: 'running' }),
    });
    const invoke = (action: string, async = false) =>
      call<{ id: string; status: string; output?: string }>('POST', '/invocations', {
        app_name: 'keys',
        action_name: action,
        version: 'keys',
        async,
      });
    const deployments = async () =>
      (await call<unknown[]>('GET', '/deployments?limit=100')).json.length;
    const before = await deployments();
    const probe = await invoke('probe');
    expect(probe.json.status).toBe('succeeded');
    const seen = JSON.parse(probe.json.output as string) as Record<string, unknown>;
    // The deployer's key, of the same project, deployed this code: the invocation's may not
    // deploy at all, nor manage keys, and each refusal says the minted key is why.
    expect(seen).toMatchObject({
      browsers: 200,
      deploy: { status: 403, message: 'A key minted for deployed code may not deploy.' },
      keys: { status: 403, message: 'A key minted for deployed code may not manage API keys.' },
    });
    expect(await deployments()).toBe(before);
    // Its key was the invocation's: it stopped with it.
    expect((await call('GET', '/browsers', undefined, seen.key as string)).status).toBe(401);
    const again = JSON.parse((await invoke('probe')).json.output as string) as { key: string };
    expect(again.key).not.toBe(seen.key);
    // The deployer's key deleted, the running invocation's key stops too.
    const held = await invoke('hold', true);
    // Once its code has been answered with its key (its console says so), the key is deleted.
    const events = await openEventStream(
      `${server.server.url}/invocations/${held.json.id}/events`,
      {},
      60_000,
    );
    for (let frame = await events.next(); frame; frame = await events.next()) {
      const event = JSON.parse(frame.data) as { event: string; message?: string };
      if (event.event === 'log' && event.message?.startsWith('first answer')) {
        expect(event.message).toBe('first answer 200');
        break;
      }
    }
    events.close();
    expect((await call('DELETE', `/org/api_keys/${deployer.json.id}`)).status).toBe(204);
    let ended: { status: string; output?: string } | undefined;
    for (let tries = 0; tries < 300 && ended === undefined; tries++) {
      const now = await call<{ status: string; output?: string }>(
        'GET',
        `/invocations/${held.json.id}`,
      );
      if (now.json.status !== 'running' && now.json.status !== 'queued') ended = now.json;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ended?.status).toBe('succeeded');
    expect(JSON.parse(ended?.output as string)).toEqual([200, 401]);
    expect((await call('DELETE', `/deployments/${created.json.id}`)).status).toBe(204);
  }, 240_000);

  it.each([
    [
      'a zip slip',
      { 'app.ts': KERNEL_APP, '../escape.js': 'x' },
      /would be written outside the app folder/,
    ],
    [
      'a missing entrypoint',
      { 'index.ts': KERNEL_APP },
      /entrypoint app\.ts is not in the archive/,
    ],
    [
      'a failing install',
      {
        'app.ts': KERNEL_APP,
        'package.json': JSON.stringify({
          name: 'broken',
          dependencies: { 'xb-no-such-package-4c1d': '1.0.0' },
        }),
      },
      /xb-no-such-package-4c1d/,
    ],
    ['code that defines no app', { 'app.ts': 'export const nothing = 1;' }, /defines no app/],
    [
      'code that throws as it loads',
      { 'app.ts': 'throw new Error("boom at load");' },
      /boom at load/,
    ],
  ])(
    '%s ends failed with its reason, leaving nothing',
    async (_name, files, reason) => {
      const created = await deploy(zip(files as Record<string, string>));
      expect(created.status).toBe(201);
      const events = await followed(created.json.id);
      const last = events.at(-1) as { deployment: DeploymentRecord };
      expect(last.deployment.status).toBe('failed');
      expect(last.deployment.status_reason).toMatch(reason);
      expectNothingLeftOf(created.json.id);
    },
    120_000,
  );

  it('refuses what is not a zip at the deploy, and bad fields at the call', async () => {
    const notZip = await deploy(new Blob(['plain text']));
    expect(notZip.status).toBe(201);
    const events = await followed(notZip.json.id);
    expect((events.at(-1) as { deployment: DeploymentRecord }).deployment.status_reason).toMatch(
      /not a zip archive/,
    );
    const badEnv = await deploy(zip({ 'app.ts': KERNEL_APP }), { 'env_vars[1BAD]': 'x' });
    expect(badEnv.status).toBe(400);
    const badFilter = await call('GET', '/deployments?app_version=v1');
    expect(badFilter.status).toBe(400);
    expect((await call('GET', '/deployments/dep_nothing')).status).toBe(404);
    expect((await call('GET', '/deployments/dep_nothing/events')).status).toBe(404);
  }, 60_000);

  it("keeps a loud deployment's events within 2 MiB, and drops them at its delete", async () => {
    // 4 MiB printed as it loads, in 1,024 lines: fewer than the events a deployment keeps, so
    // only the bound in bytes can keep them small.
    const loud = bareApp(
      'loud',
      "const line = 'x'.repeat(4096);\nfor (let i = 0; i < 1024; i++) console.log('line', i, line);",
    );
    const created = await deploy(zip({ 'app.ts': loud }), { version: 'loud' });
    expect(created.status).toBe(201);
    expect((await followed(created.json.id)).at(-1)).toMatchObject({
      deployment: expect.objectContaining({ status: 'running' }),
    });
    // Read again once it runs: what the server kept of it.
    const kept = await followed(created.json.id);
    const characters = kept.reduce((sum, event) => sum + JSON.stringify(event).length, 0);
    // The server counts two bytes a character: 2 MiB is 1 Mi characters of events.
    expect(characters).toBeLessThanOrEqual(1024 * 1024);
    const lines = kept.flatMap((event) => (event.event === 'log' ? [String(event.message)] : []));
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.at(-1)).toMatch(/^line 1023 x/);
    expect(lines.some((line) => line.startsWith('line 0 '))).toBe(false);
    expect(
      kept.flatMap((event) =>
        event.event === 'deployment_state' ? [(event.deployment as DeploymentRecord).status] : [],
      ),
    ).toEqual(['queued', 'in_progress', 'running']);

    expect((await call('DELETE', `/deployments/${created.json.id}`)).status).toBe(204);
    expect(await followed(created.json.id)).toEqual([
      expect.objectContaining({
        event: 'deployment_state',
        deployment: expect.objectContaining({ status: 'stopped' }),
      }),
    ]);
  }, 60_000);

  it('keeps a place for the default project while another fills the deploys and invocations', async () => {
    const project = await call<{ id: string }>('POST', '/org/projects', { name: 'crowd' });
    expect(project.status).toBe(201);
    const crowd = await call<{ key: string }>('POST', '/org/api_keys', {
      name: 'crowd',
      project_id: project.json.id,
    });
    const key = crowd.json.key;
    const ids: Record<string, string[]> = { [key]: [], [TEST_TOKEN]: [] };
    const running = async (token: string, version: string) => {
      const made = await deploy(zip({ 'app.ts': bareApp('holder') }), { version }, token);
      expect(made.status).toBe(201);
      ids[token]?.push(made.json.id);
      expect((await followed(made.json.id, token)).at(-1)).toMatchObject({
        deployment: expect.objectContaining({ status: 'running' }),
      });
    };
    await running(key, 'hold');
    await running(TEST_TOKEN, 'hold');
    const invoke = (token: string) =>
      call<{ status?: string; code?: string; message?: string }>(
        'POST',
        '/invocations',
        {
          app_name: 'holder',
          action_name: 'hold',
          version: 'hold',
          async: true,
          async_timeout_seconds: 120,
        },
        token,
      );
    try {
      // Of the node's 4 invocation places, the crowd takes 3; the last is kept for others.
      for (let i = 0; i < 3; i++) expect((await invoke(key)).status).toBe(202);
      const refusedRun = await invoke(key);
      expect(refusedRun.status).toBe(429);
      expect(refusedRun.json).toEqual({
        code: 'rate_limited',
        message:
          'This server keeps its last 1 of 4 invocation places for other projects, and this project runs 3. Try again when one ends.',
      });
      expect((await invoke(TEST_TOKEN)).status).toBe(202);

      // The node's 2 deploy slots, held by code that loads slowly, then the line: the crowd
      // keeps 4 places in it, every further deploy is 429.
      const slow = zip({
        'app.ts': bareApp('slow', 'await new Promise((resolve) => setTimeout(resolve, 50_000));'),
      });
      const status = async (id: string, token: string) =>
        (await call<DeploymentRecord>('GET', `/deployments/${id}`, undefined, token)).json.status;
      const holding: string[] = [];
      for (const version of ['s1', 's2']) {
        const made = await deploy(slow, { version }, key);
        holding.push(made.json.id);
        ids[key]?.push(made.json.id);
      }
      for (let tries = 0; tries < 200; tries++) {
        const now = await Promise.all(holding.map((id) => status(id, key)));
        if (now.every((each) => each === 'in_progress')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const answers: number[] = [];
      for (let i = 0; i < 16; i++) {
        const made = await deploy(slow, { version: `q${i}` }, key);
        answers.push(made.status);
        if (made.status === 201) ids[key]?.push(made.json.id);
        else
          expect(made.json).toEqual({
            code: 'rate_limited',
            message: 'This project has 4 deploys waiting already. Try again when they are done.',
          });
      }
      expect(answers).toEqual([201, 201, 201, 201, ...new Array(12).fill(429)]);
      const queued = ids[key]?.slice(-4) ?? [];

      // The default project gets a place in the line, and the next free slot.
      const mine = await deploy(zip({ 'app.ts': bareApp('mine') }), { version: 'mine' });
      expect(mine.status).toBe(201);
      ids[TEST_TOKEN]?.push(mine.json.id);
      expect((await call('DELETE', `/deployments/${holding[0]}`, undefined, key)).status).toBe(204);
      const mineLeaves = async (from: string) => {
        let now = from;
        for (let tries = 0; tries < 200 && now === from; tries++) {
          now = await status(mine.json.id, TEST_TOKEN);
          if (now === from) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return now;
      };
      // It starts ahead of the crowd's four, which waited longer; then it runs.
      expect(await mineLeaves('queued')).toBe('in_progress');
      expect(await Promise.all(queued.map((id) => status(id, key)))).toEqual(
        new Array(4).fill('queued'),
      );
      expect(await mineLeaves('in_progress')).toBe('running');
    } finally {
      // Deleted, their deploys and invocations end.
      for (const [token, each] of Object.entries(ids))
        for (const id of each) await call('DELETE', `/deployments/${id}`, undefined, token);
    }
  }, 120_000);
});
