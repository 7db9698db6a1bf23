import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Kernel, { toFile } from '@onkernel/sdk';
import { formatNetworkEntry } from '@x/types';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { registryNetworks, vendorClientPackages } from '../test-support/app-runners.js';
import { openEventStream } from '../test-support/event-stream.js';
import {
  jsonCaller,
  TEST_ALLOW_NETWORKS,
  TEST_TOKEN,
  useSite,
  useTestServer,
} from '../test-support/servers.js';

/**
 * An agent as users of the public Kernel app framework write one, TypeScript, its packages named
 * in its package.json and installed by the deploy: `title` makes a browser for its invocation,
 * drives it with Playwright over the session's CDP URL and returns what it saw; `hold` makes a
 * browser and waits; `secret` says whether its env var reached it; `boom` throws.
 */
const AGENT = `
import { Kernel, type KernelContext } from '@onkernel/sdk';
import { chromium } from 'playwright-core';

const kernel = new Kernel();
const app = kernel.app('agent');

app.action('title', async (ctx: KernelContext, payload?: { url: string }) => {
  const session = await kernel.browsers.create({ invocation_id: ctx.invocation_id });
  console.log('made', session.session_id);
  const browser = await chromium.connectOverCDP(session.cdp_ws_url);
  const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
  await page.goto(payload?.url ?? 'about:blank');
  const text = await page.textContent('p');
  await browser.close();
  return { session: session.session_id, text };
});

app.action('hold', async (ctx: KernelContext) => {
  const session = await kernel.browsers.create({ invocation_id: ctx.invocation_id });
  console.log('holding', session.session_id);
  await new Promise((resolve) => setTimeout(resolve, 600_000));
});

app.action('secret', async (_ctx: KernelContext) => process.env.AGENT_SECRET === 'hunter2-7f3a');

app.action('boom', async (_ctx: KernelContext) => {
  throw new TypeError('the shelf is empty');
});
`;

const PACKAGE = JSON.stringify({
  name: 'agent',
  type: 'module',
  dependencies: { '@onkernel/sdk': '0.84.0', 'playwright-core': '1.65.1' },
});

// The registry is where npm finds it on this host: opened to installs as an operator would.
const env: Record<string, string> = {};
beforeAll(async () => {
  const registry = (await registryNetworks()).map(formatNetworkEntry);
  env.XB_ALLOW_NETWORKS = [TEST_ALLOW_NETWORKS, ...registry].join(',');
});
const server = useTestServer(env);
const site = useSite();
const call = jsonCaller(() => server.server.url);

interface InvocationRecord {
  id: string;
  status: string;
  output?: string;
  status_reason?: string;
}

let version = '';

/** Posts a deploy and follows its events until it ends: it must end running. */
async function deployUntilRunning(form: FormData): Promise<void> {
  const created = await fetch(`${server.server.url}/deployments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_TOKEN}` },
    body: form,
  });
  const { id } = (await created.json()) as { id: string };
  const stream = await openEventStream(
    `${server.server.url}/deployments/${id}/events`,
    {},
    300_000,
  );
  let last = '';
  for (let frame = await stream.next(); frame; frame = await stream.next()) last = frame.data;
  expect(JSON.parse(last)).toMatchObject({ deployment: { status: 'running' } });
}

beforeAll(async () => {
  const form = new FormData();
  const encoder = new TextEncoder();
  form.set(
    'file',
    new Blob([
      zipSync({
        'package.json': encoder.encode(PACKAGE),
        'app.ts': encoder.encode(AGENT),
      }) as Uint8Array<ArrayBuffer>,
    ]),
    'agent.zip',
  );
  form.set('entrypoint_rel_path', 'app.ts');
  form.set('version', 'v1');
  form.set('env_vars[AGENT_SECRET]', 'hunter2-7f3a');
  await deployUntilRunning(form);
  version = 'v1';
}, 300_000);

function invoke(action: string, extra: Record<string, unknown> = {}) {
  return call<InvocationRecord>('POST', '/invocations', {
    app_name: 'agent',
    action_name: action,
    version,
    ...extra,
  });
}

/** Every event of an invocation's stream, parsed, until it ends. */
async function followed(id: string): Promise<Record<string, unknown>[]> {
  const stream = await openEventStream(
    `${server.server.url}/invocations/${id}/events`,
    {},
    120_000,
  );
  const events: Record<string, unknown>[] = [];
  for (let frame = await stream.next(); frame; frame = await stream.next()) {
    events.push(JSON.parse(frame.data) as Record<string, unknown>);
  }
  return events;
}

/** No sandbox of the invocation is left: its home is gone. */
function expectNoSandboxOf(id: string): void {
  const instances = join(server.dataDir, 'instances');
  if (existsSync(instances)) {
    expect(readdirSync(instances).filter((name) => name.startsWith(id))).toEqual([]);
  }
}

describe('invocations of a deployed Kernel app', () => {
  it('a sync invocation makes a browser, drives it with Playwright over CDP and answers what it saw; its browser ends with it', async () => {
    const answer = await invoke('title', { payload: JSON.stringify({ url: site.url }) });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.status, JSON.stringify(answer.json)).toBe('succeeded');
    const output = JSON.parse(answer.json.output ?? '{}') as { session: string; text: string };
    expect(output.text).toBe('shop');
    const browser = await call<{ deleted_at?: string; invocation_id?: string }>(
      'GET',
      `/browsers/${output.session}`,
    );
    expect(browser.json).toMatchObject({ invocation_id: answer.json.id });
    expect(browser.json.deleted_at).toBeDefined();
    expectNoSandboxOf(answer.json.id);
  }, 120_000);

  it('async answers 202 queued; its events carry the console and end succeeded', async () => {
    const answer = await invoke('title', {
      payload: JSON.stringify({ url: site.url }),
      async: true,
    });
    expect(answer.status).toBe(202);
    expect(answer.json.status).toBe('queued');
    const events = await followed(answer.json.id);
    expect(
      events.some((event) => event.event === 'log' && /^made br_/.test(String(event.message))),
    ).toBe(true);
    const states = events.flatMap((event) =>
      event.event === 'invocation_state' ? [(event.invocation as InvocationRecord).status] : [],
    );
    expect(states.at(-1)).toBe('succeeded');
    expect(states).toContain('running');
  }, 120_000);

  it('a cancel stops the code and ends its browsers', async () => {
    const answer = await invoke('hold', { async: true });
    expect(answer.status).toBe(202);
    const stream = await openEventStream(
      `${server.server.url}/invocations/${answer.json.id}/events`,
      {},
      120_000,
    );
    let session = '';
    for (let frame = await stream.next(); frame; frame = await stream.next()) {
      const event = JSON.parse(frame.data) as { event: string; message?: string };
      const held = event.event === 'log' ? /^holding (br_\w+)/.exec(event.message ?? '') : null;
      if (held) {
        session = held[1] as string;
        break;
      }
    }
    stream.close();
    expect(session).not.toBe('');
    const cancelled = await call<InvocationRecord>('PATCH', `/invocations/${answer.json.id}`, {
      status: 'failed',
    });
    expect(cancelled.json).toMatchObject({ status: 'failed', status_reason: 'Cancelled.' });
    const browser = await call<{ deleted_at?: string }>('GET', `/browsers/${session}`);
    expect(browser.json.deleted_at).toBeDefined();
    // The code is gone: its sandbox is removed soon after.
    for (let wait = 0; wait < 100; wait++) {
      const instances = join(server.dataDir, 'instances');
      if (
        !existsSync(instances) ||
        !readdirSync(instances).some((name) => name.startsWith(answer.json.id))
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expectNoSandboxOf(answer.json.id);
  }, 120_000);

  it('env vars reach the code and never come back; a throw is failed with its message', async () => {
    const secret = await invoke('secret');
    expect(secret.json).toMatchObject({ status: 'succeeded', output: 'true' });
    const listed = await call<unknown>('GET', '/invocations');
    const deployments = await call<unknown>('GET', '/deployments');
    const apps = await call<unknown>('GET', '/apps');
    expect(JSON.stringify([listed.json, deployments.json, apps.json])).not.toContain('hunter2');
    const boom = await invoke('boom');
    expect(boom.json).toMatchObject({
      status: 'failed',
      status_reason: 'TypeError: the shelf is empty',
    });
  }, 120_000);
});

/** The same agent written with this project's client (an .mts file: no package.json). */
const CLIENT_AGENT = `
import { defineApp } from '@x/client/apps';
import { createClient } from '@x/client/node';
import { chromium } from 'playwright-core';

const client = createClient();

defineApp('client-agent').action('title', async (context, payload?: { url: string }) => {
  const session = await client.browsers.create({ invocation_id: context.invocation_id });
  const browser = await chromium.connectOverCDP(session.cdp_ws_url);
  const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
  await page.goto(payload?.url ?? 'about:blank');
  const text = await page.textContent('p');
  await browser.close();
  return { text };
});
`;

/** Every file under `folder`, by its path in a zip. */
function filesUnder(folder: string, prefix = ''): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) Object.assign(files, filesUnder(path, `${prefix}${entry.name}/`));
    else if (entry.isFile()) files[`${prefix}${entry.name}`] = readFileSync(path);
  }
  return files;
}

describe('an app written with @x/client', () => {
  it('deploys with its packages brought along and runs the same way, its token and URL from XB_TOKEN and XB_BASE_URL', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'xb-client-app-'));
    try {
      vendorClientPackages(folder);
      writeFileSync(join(folder, 'app.mts'), CLIENT_AGENT);
      const form = new FormData();
      form.set('file', new Blob([zipSync(filesUnder(folder)) as Uint8Array<ArrayBuffer>]), 'a.zip');
      form.set('entrypoint_rel_path', 'app.mts');
      form.set('version', 'client');
      await deployUntilRunning(form);
      const answer = await call<InvocationRecord>('POST', '/invocations', {
        app_name: 'client-agent',
        action_name: 'title',
        version: 'client',
        payload: JSON.stringify({ url: site.url }),
      });
      expect(answer.json, JSON.stringify(answer.json)).toMatchObject({ status: 'succeeded' });
      expect(JSON.parse(answer.json.output ?? '{}')).toEqual({ text: 'shop' });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('the public Kernel SDK against the server', () => {
  it('deploys, follows, lists apps and invokes with @onkernel/sdk as its users call it', async () => {
    const kernel = new Kernel({ apiKey: TEST_TOKEN, baseURL: server.server.url, maxRetries: 0 });
    const encoder = new TextEncoder();
    const archive = zipSync({
      'package.json': encoder.encode(PACKAGE),
      'app.ts': encoder.encode(AGENT),
    }) as Uint8Array<ArrayBuffer>;
    const deployment = await kernel.deployments.create({
      file: await toFile(archive, 'agent.zip'),
      entrypoint_rel_path: 'app.ts',
      version: 'sdk',
      env_vars: { AGENT_SECRET: 'hunter2-7f3a' },
      region: 'aws.us-east-1a',
      force: false,
    });
    expect(deployment.status).toBe('queued');
    const seen: string[] = [];
    for await (const event of await kernel.deployments.follow(deployment.id)) {
      seen.push(event.event);
      if (event.event === 'deployment_state' && event.deployment.status !== 'queued') {
        if (['running', 'failed', 'stopped'].includes(event.deployment.status)) break;
      }
    }
    expect(seen).toContain('app_version_summary');
    expect((await kernel.deployments.retrieve(deployment.id)).status).toBe('running');
    const versions = [];
    for await (const version of kernel.apps.list({ app_name: 'agent' })) versions.push(version);
    expect(versions.map((version) => version.version).sort()).toEqual(['sdk', 'v1']);
    const invoked = await kernel.invocations.create({
      app_name: 'agent',
      action_name: 'secret',
      version: 'sdk',
    });
    expect(invoked).toMatchObject({ status: 'succeeded', output: 'true' });
    const read = await kernel.invocations.retrieve(invoked.id);
    expect(read).toMatchObject({ app_name: 'agent', version: 'sdk', status: 'succeeded' });
    await kernel.deployments.delete(deployment.id);
    expect((await kernel.deployments.retrieve(deployment.id)).status).toBe('stopped');
  }, 300_000);
});
