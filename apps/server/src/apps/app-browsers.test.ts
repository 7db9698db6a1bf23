import { cpSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type NetworkEntry, parseNetworkEntry } from '@x/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageFolder } from '../sandbox/worker-files.js';
import { useAppRunner, vendorClientPackages } from '../test-support/app-runners.js';
import {
  deployTestApp,
  jsonCaller,
  TEST_TOKEN,
  useSite,
  useTestServer,
} from '../test-support/servers.js';
import type { AppLogLine, AppRunOutcome } from './app-runner.js';

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

const server = useTestServer();
const site = useSite();
const call = jsonCaller(() => server.server.url);
const apps = useAppRunner({ network: true });
let appFolder: string;
let clientAppFolder: string;

beforeAll(() => {
  appFolder = join(apps.root, 'app');
  const require = createRequire(import.meta.url);
  for (const name of ['@onkernel/sdk', 'playwright-core']) {
    cpSync(packageFolder(name, require), join(appFolder, 'node_modules', name), {
      recursive: true,
    });
  }
  writeFileSync(join(appFolder, 'package.json'), '{"name":"agent","type":"module"}');
  writeFileSync(join(appFolder, 'app.ts'), AGENT);
  clientAppFolder = join(apps.root, 'client-app');
  vendorClientPackages(clientAppFolder);
  writeFileSync(join(clientAppFolder, 'package.json'), '{"name":"agent","type":"module"}');
  writeFileSync(join(clientAppFolder, 'app.ts'), CLIENT_AGENT);
});

/** The agent's `title` action run for `invocation` from `folder`, as the server would run it. */
async function runTitle(
  folder: string,
  invocation: string,
  env: Record<string, string>,
  options: { readonly isApiOpen: boolean; readonly url?: string },
): Promise<{ outcome: AppRunOutcome; lines: AppLogLine[] }> {
  // The server's own port is all of the host the code reaches; pages go where browsers may.
  const api = new URL(server.server.url);
  const lines: AppLogLine[] = [];
  const outcome = await apps.runner.invoke(
    {
      id: invocation,
      folder,
      entrypoint: 'app.ts',
      env,
      timeoutMs: 90_000,
      allowNetworks: options.isApiOpen
        ? [parseNetworkEntry(`127.0.0.1:${api.port}`) as NetworkEntry]
        : [],
      onLog: (line) => lines.push(line),
    },
    {
      app: 'agent',
      action: 'title',
      invocationId: invocation,
      ...(options.url ? { payload: JSON.stringify({ url: options.url }) } : {}),
    },
  );
  return { outcome, lines };
}

/**
 * A new invocation that runs until it is ended (of the contract suite's app, deployed for it):
 * its id, for the runner to run the agent as.
 */
async function newInvocation(): Promise<string> {
  const app = await deployTestApp(server.server.url);
  const created = await call<{ id: string }>('POST', '/invocations', app.invocation());
  expect(created.status).toBe(202);
  return created.json.id;
}

describe('an action in its sandbox', () => {
  it('makes a browser through the API it is given, drives it over CDP and returns what it saw', async () => {
    const invocation = await newInvocation();
    const { outcome, lines } = await runTitle(
      appFolder,
      invocation,
      { KERNEL_API_KEY: TEST_TOKEN, KERNEL_BASE_URL: server.server.url },
      { isApiOpen: true, url: site.url },
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
    const invocation = await newInvocation();
    const { outcome } = await runTitle(
      clientAppFolder,
      invocation,
      { XB_TOKEN: TEST_TOKEN, XB_BASE_URL: server.server.url },
      { isApiOpen: true, url: site.url },
    );
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    expect(JSON.parse((outcome.ok && outcome.output) || '{}')).toMatchObject({ text: 'shop' });
    await call('PATCH', `/invocations/${invocation}`, { status: 'succeeded' });
  }, 120_000);

  it('reaches nothing of the host but what it is given: another loopback port is refused', async () => {
    const { outcome } = await runTitle(
      appFolder,
      'inv_blocked',
      { KERNEL_API_KEY: TEST_TOKEN, KERNEL_BASE_URL: server.server.url },
      { isApiOpen: false },
    );
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.reason).toMatch(/Connection error|ECONNREFUSED|fetch failed/i);
  }, 90_000);
});
