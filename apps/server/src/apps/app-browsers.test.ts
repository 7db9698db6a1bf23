import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NetworkEntry, parseNetworkEntry } from '@x/types';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionNetworks } from '../network/session-networks.js';
import { DEFAULT_SESSION_LIMITS, SessionCgroups } from '../sandbox/cgroups.js';
import { newUserBlockBase, SandboxUsers } from '../sandbox/sandbox-users.js';
import { packageFolder } from '../sandbox/worker-files.js';
import { findSystemTools } from '../system/executables.js';
import { jsonCaller, TEST_TOKEN, useSite, useTestServer } from '../test-support/servers.js';
import { type AppLogLine, AppRunner } from './app-runner.js';

/**
 * An agent as users of the public Kernel app framework write one: it makes a browser for its
 * invocation, drives it with Playwright over the session's CDP URL and returns what it saw.
 */
const AGENT = `
import { Kernel, type KernelContext } from '@onkernel/sdk';
import { chromium } from 'playwright-core';

const kernel = new Kernel();

kernel.app('agent').action('title', async (ctx: KernelContext, payload?: { url: string }) => {
  const session = await kernel.browsers.create({ invocation_id: ctx.invocation_id });
  console.log('made', session.session_id);
  const browser = await chromium.connectOverCDP(session.cdp_ws_url);
  const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
  await page.goto(payload?.url ?? 'about:blank');
  const text = await page.textContent('p');
  await browser.close();
  return { session: session.session_id, text };
});
`;

/** The same agent written with this project's client, as its users write one. */
const CLIENT_AGENT = `
import { defineApp } from '@x/client/apps';
import { createClient } from '@x/client/node';
import { chromium } from 'playwright-core';

const client = createClient();

defineApp('agent').action('title', async (context, payload?: { url: string }) => {
  const session = await client.browsers.create({ invocation_id: context.invocation_id });
  const browser = await chromium.connectOverCDP(session.cdp_ws_url);
  const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
  await page.goto(payload?.url ?? 'about:blank');
  const text = await page.textContent('p');
  await browser.close();
  return { session: session.session_id, text };
});
`;

/** Copies a workspace package as it is published (package.json and dist), or a whole package. */
function copyPackage(folder: string, into: string, isPublishedOnly: boolean): void {
  if (!isPublishedOnly) {
    cpSync(folder, into, { recursive: true });
    return;
  }
  mkdirSync(into, { recursive: true });
  cpSync(join(folder, 'package.json'), join(into, 'package.json'));
  cpSync(join(folder, 'dist'), join(into, 'dist'), { recursive: true });
}

const server = useTestServer();
const site = useSite();
const call = jsonCaller(() => server.server.url);
let root: string;
let runner: AppRunner;
let networks: SessionNetworks;
let cgroups: SessionCgroups | undefined;
let appFolder: string;
let clientAppFolder: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'xb-app-browsers-'));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  appFolder = join(root, 'app');
  const require = createRequire(import.meta.url);
  for (const name of ['@onkernel/sdk', 'playwright-core']) {
    cpSync(packageFolder(name, require), join(appFolder, 'node_modules', name), {
      recursive: true,
    });
  }
  writeFileSync(join(appFolder, 'package.json'), '{"name":"agent","type":"module"}');
  writeFileSync(join(appFolder, 'app.ts'), AGENT);
  clientAppFolder = join(root, 'client-app');
  const clientFolder = packageFolder('@x/client', require);
  const fromClient = createRequire(join(clientFolder, 'package.json'));
  const modules = join(clientAppFolder, 'node_modules');
  copyPackage(clientFolder, join(modules, '@x', 'client'), true);
  copyPackage(packageFolder('@x/types', fromClient), join(modules, '@x', 'types'), true);
  for (const name of ['ky', 'valibot', 'eventsource-parser'])
    copyPackage(packageFolder(name, fromClient), join(modules, name), false);
  copyPackage(packageFolder('playwright-core', require), join(modules, 'playwright-core'), false);
  writeFileSync(join(clientAppFolder, 'package.json'), '{"name":"agent","type":"module"}');
  writeFileSync(join(clientAppFolder, 'app.ts'), CLIENT_AGENT);
  const tools = findSystemTools();
  if (!tools.bwrap || !tools.ip || !tools.nft || !tools.nsenter)
    throw new Error('bubblewrap, iproute2, nftables and nsenter are needed');
  const logger = pino({ level: 'silent' });
  networks = await SessionNetworks.start({
    tools: { ip: tools.ip, nft: tools.nft, nsenter: tools.nsenter },
    dataDir,
    subnet: undefined,
    logger,
  });
  cgroups = SessionCgroups.detect(dataDir, DEFAULT_SESSION_LIMITS);
  runner = new AppRunner(
    tools.bwrap,
    dataDir,
    {
      users: SandboxUsers.canSwitchUser ? new SandboxUsers(newUserBlockBase()) : undefined,
      isEnabled: true,
      cgroups,
      egress: { networks },
    },
    logger,
  );
}, 60_000);

afterAll(async () => {
  await networks?.close();
  cgroups?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('an action in its sandbox', () => {
  it('makes a browser through the API it is given, drives it over CDP and returns what it saw', async () => {
    const created = await call<{ id: string }>('POST', '/invocations', {
      app_name: 'agent',
      action_name: 'title',
    });
    expect(created.status).toBe(201);
    const invocation = created.json.id;
    // The server's own port is all of the host the code reaches; pages go where browsers may.
    const api = new URL(server.server.url);
    const lines: AppLogLine[] = [];
    const outcome = await runner.invoke(
      {
        id: invocation,
        folder: appFolder,
        entrypoint: 'app.ts',
        env: { KERNEL_API_KEY: TEST_TOKEN, KERNEL_BASE_URL: server.server.url },
        timeoutMs: 90_000,
        allowNetworks: [parseNetworkEntry(`127.0.0.1:${api.port}`) as NetworkEntry],
        onLog: (line) => lines.push(line),
      },
      {
        app: 'agent',
        action: 'title',
        invocationId: invocation,
        payload: JSON.stringify({ url: site.url }),
      },
    );
    expect(outcome.ok, JSON.stringify({ outcome, lines })).toBe(true);
    const output = JSON.parse((outcome.ok && outcome.output) || '{}') as {
      session: string;
      text: string;
    };
    expect(output.text).toBe('shop');
    expect(lines[0]?.message).toBe(`made ${output.session}`);
    // The browser is the invocation's: its list names it while it runs.
    const browsers = await call<{ browsers: { session_id: string }[] }>(
      'GET',
      `/invocations/${invocation}/browsers`,
    );
    expect(browsers.json.browsers.map((browser) => browser.session_id)).toEqual([output.session]);
    await call('PATCH', `/invocations/${invocation}`, { status: 'succeeded' });
    const after = await call<{ browsers: unknown[] }>('GET', `/invocations/${invocation}/browsers`);
    expect(after.json.browsers).toEqual([]);
  }, 120_000);

  it('runs an app written with @x/client the same way, its token and URL from XB_TOKEN and XB_BASE_URL', async () => {
    const created = await call<{ id: string }>('POST', '/invocations', {
      app_name: 'agent',
      action_name: 'title',
    });
    const invocation = created.json.id;
    const api = new URL(server.server.url);
    const outcome = await runner.invoke(
      {
        id: invocation,
        folder: clientAppFolder,
        entrypoint: 'app.ts',
        env: { XB_TOKEN: TEST_TOKEN, XB_BASE_URL: server.server.url },
        timeoutMs: 90_000,
        allowNetworks: [parseNetworkEntry(`127.0.0.1:${api.port}`) as NetworkEntry],
      },
      {
        app: 'agent',
        action: 'title',
        invocationId: invocation,
        payload: JSON.stringify({ url: site.url }),
      },
    );
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    expect(JSON.parse((outcome.ok && outcome.output) || '{}')).toMatchObject({ text: 'shop' });
    await call('PATCH', `/invocations/${invocation}`, { status: 'succeeded' });
  }, 120_000);

  it('reaches nothing of the host but what it is given: another loopback port is refused', async () => {
    const lines: AppLogLine[] = [];
    const outcome = await runner.invoke(
      {
        id: 'inv_blocked',
        folder: appFolder,
        entrypoint: 'app.ts',
        env: { KERNEL_API_KEY: TEST_TOKEN, KERNEL_BASE_URL: server.server.url },
        timeoutMs: 60_000,
        allowNetworks: [],
        onLog: (line) => lines.push(line),
      },
      { app: 'agent', action: 'title', invocationId: 'inv_blocked' },
    );
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.reason).toMatch(/Connection error|ECONNREFUSED|fetch failed/i);
  }, 90_000);
});
