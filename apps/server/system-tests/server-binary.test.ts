/**
 * The server as users run it: the built `xb-server` bin started as a process with only its
 * environment (its `main.ts`, umask 077 and all), pointed at the run's small internet as an
 * operator points it at a company's resolver and CA, driven through its public API with the
 * public Kernel SDK and Playwright.
 */
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Kernel, { toFile } from '@onkernel/sdk';
import { TOOL_NAMES } from '@x/mcp';
import { formatNetworkEntry } from '@x/types';
import { zipSync } from 'fflate';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryHost, registryNetworks } from '../src/test-support/app-runners.js';
import { processesOfServer } from '../src/test-support/processes.js';
import { type SmallInternet, startSmallInternet } from '../src/test-support/small-internet.js';
import { launchViewer } from '../src/test-support/viewer.js';
import { hostLeftovers } from './leftovers.js';
import { startShippedServer } from './shipped-server.js';

const TOKEN = 'system-test-token';
const SHOP = '<title>Shop</title><h1 id="greeting">Welcome to the shop</h1>';

let internet: SmallInternet;
/** A developer's page on the host's loopback, opened to sessions by XB_ALLOW_NETWORKS. */
let loopbackPage: ReturnType<typeof createHttpServer>;
let loopbackUrl = '';
let dataDir: string;
let server: Awaited<ReturnType<typeof startShippedServer>>;
let kernel: Kernel;

beforeAll(async () => {
  internet = await startSmallInternet({ 'shop.example.test': SHOP });
  // The registry is where npm finds it on this host: opened to installs as an operator would.
  const registry = (await registryNetworks()).map(formatNetworkEntry);
  loopbackPage = createHttpServer((_, response) => {
    response.setHeader('content-type', 'text/html');
    response.end('<title>Local</title><h1 id="greeting">Hello from loopback</h1>');
  });
  await new Promise<void>((resolve) => loopbackPage.listen(0, '127.0.0.1', resolve));
  const loopbackPort = (loopbackPage.address() as AddressInfo).port;
  loopbackUrl = `http://127.0.0.1:${loopbackPort}/`;
  dataDir = join(mkdtempSync(join(tmpdir(), 'xb-system-')), 'data');
  server = await startShippedServer({
    XB_DATA_DIR: dataDir,
    XB_TOKENS: TOKEN,
    XB_ALLOW_NETWORKS: [...registry, `127.0.0.1:${loopbackPort}`].join(','),
    ...internet.env,
  });
  kernel = new Kernel({ apiKey: TOKEN, baseURL: server.url, maxRetries: 0 });
}, 120_000);

afterAll(async () => {
  if (server?.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  }
  await internet?.close();
  loopbackPage?.close();
});

describe('the xb-server bin, started as users start it', () => {
  it('opens an HTTPS site by its host name, trusting the CA it was given', async () => {
    const session = await kernel.browsers.create({ timeout_seconds: 120 });
    try {
      const browser = await chromium.connectOverCDP(session.cdp_ws_url);
      try {
        const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
        const response = await page.goto('https://shop.example.test/', { timeout: 20_000 });
        expect(response?.status()).toBe(200);
        expect(await page.textContent('#greeting')).toBe('Welcome to the shop');
        expect(page.url()).toBe('https://shop.example.test/');
        // A name of the test domain that no site has fails as it does on any machine.
        const missing = await page.goto('https://nowhere.example.test/', { timeout: 20_000 }).then(
          () => 'loaded',
          (error: Error) => error.message,
        );
        expect(missing).toMatch(/ERR_NAME_NOT_RESOLVED/);
      } finally {
        await browser.close();
      }
      expect(internet.asked).toContain('shop.example.test');
    } finally {
      await kernel.browsers.deleteByID(session.session_id);
    }
  });

  it('tells its log which setting opens a loopback page a session was refused', async () => {
    // A developer's page on the host's loopback, which XB_ALLOW_NETWORKS does not open here.
    const local = createHttpServer((_, response) => response.end('<h1>local app</h1>'));
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const { port } = local.address() as AddressInfo;
    const session = await kernel.browsers.create({});
    try {
      const browser = await chromium.connectOverCDP(session.cdp_ws_url);
      try {
        const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
        const failed = await page.goto(`http://localhost:${port}/`, { timeout: 20_000 }).then(
          () => 'loaded',
          (error: Error) => error.message,
        );
        expect(failed).toMatch(/ERR_CONNECTION_REFUSED/);
      } finally {
        await browser.close();
      }
      await expect
        .poll(() => server.output.stdout + server.output.stderr, { timeout: 15_000 })
        .toMatch(
          new RegExp(
            `"session":"${session.session_id}".*127\\.0\\.0\\.1:${port}/tcp.*XB_ALLOW_NETWORKS=127\\.0\\.0\\.1:${port} opens it`,
          ),
        );
      const metrics = await (
        await fetch(`${server.url}/metrics`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        })
      ).text();
      expect(Number(/^xb_egress_blocked_total (\d+)/m.exec(metrics)?.[1] ?? 0)).toBeGreaterThan(0);
    } finally {
      await kernel.browsers.deleteByID(session.session_id);
      local.close();
    }
  });

  it('deploys a Kernel app that depends on @onkernel/sdk from the registry, and invokes it', async () => {
    const app = [
      "import { Kernel } from '@onkernel/sdk';",
      "const app = new Kernel().app('system-greeter');",
      "app.action('greet', async (_ctx, payload) => ({ greeting: 'hello ' + payload?.name }));",
    ].join('\n');
    const pkg = JSON.stringify({
      name: 'system-greeter',
      type: 'module',
      dependencies: { '@onkernel/sdk': '0.84.0' },
    });
    const archive = zipSync({
      'package.json': new TextEncoder().encode(pkg),
      'app.js': new TextEncoder().encode(app),
    });
    const deployment = await kernel.deployments.create({
      file: await toFile(Buffer.from(archive), 'app.zip'),
      entrypoint_rel_path: 'app.js',
      version: 'v1',
    });
    let status = deployment.status;
    let reason: string | undefined;
    for (const deadline = Date.now() + 180_000; Date.now() < deadline; ) {
      const now = await kernel.deployments.retrieve(deployment.id);
      status = now.status;
      reason = now.status_reason;
      if (status === 'running' || status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect({ status, reason }).toMatchObject({ status: 'running' });
    const invocation = await kernel.invocations.create({
      app_name: 'system-greeter',
      action_name: 'greet',
      version: 'v1',
      payload: JSON.stringify({ name: 'operator' }),
      async: false,
    });
    expect(invocation.status).toBe('succeeded');
    // npm found the registry by its name through the resolver the server was given, which
    // passed the question on to the host's own.
    expect(internet.asked).toContain(registryHost());
    expect(JSON.parse(String(invocation.output))).toEqual({ greeting: 'hello operator' });
  }, 240_000);

  it('outlives Playwright code that floods its stdout and its answer channel without a newline', async () => {
    const session = await kernel.browsers.create({ timeout_seconds: 120 });
    try {
      const rssBefore = residentBytes(server.child.pid as number);
      // 700 MiB to the worker's stdout, then the same to the descriptor answers come on.
      for (const stream of ['process.stdout', "createWriteStream('', { fd: 4 })"]) {
        const flood = await kernel.browsers.playwright.execute(session.session_id, {
          code: [
            "const { createWriteStream } = await import('node:fs');",
            `const out = ${stream};`,
            "const chunk = Buffer.alloc(1024 * 1024, 'x');",
            'for (let i = 0; i < 700; i++)',
            "  if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));",
            "return 'flooded';",
          ].join('\n'),
          timeout_sec: 60,
        });
        expect(flood.success).toBe(false);
        expect(flood.error).toMatch(/past its bound/);
      }
      expect(server.child.exitCode).toBeNull();
      // What was read was dropped as it came: the server holds none of it.
      expect(residentBytes(server.child.pid as number) - rssBefore).toBeLessThan(128 * 1024 ** 2);
      const next = await kernel.browsers.playwright.execute(session.session_id, {
        code: 'console.log("still here"); return 1 + 1;',
      });
      expect(next).toMatchObject({ success: true, result: 2, stdout: 'still here\n' });
    } finally {
      await kernel.browsers.deleteByID(session.session_id);
    }
  }, 120_000);

  it('keeps the session of a Playwright MCP server that pauses 90 s with its connection open', async () => {
    // The default idle time-out (60 s): a connected DevTools client counts as activity.
    const session = await kernel.browsers.create({});
    const mcp = new Client({ name: 'system-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        join(
          dirname(createRequire(import.meta.url).resolve('@playwright/mcp/package.json')),
          'cli.js',
        ),
        '--cdp-endpoint',
        session.cdp_ws_url,
      ],
      // It keeps page snapshots in files under its working folder.
      cwd: mkdtempSync(join(tmpdir(), 'xb-playwright-mcp-')),
      stderr: 'ignore',
    });
    const textOf = (result: Awaited<ReturnType<typeof mcp.callTool>>) =>
      (result.content as { type: string; text?: string }[]).map((part) => part.text).join('\n');
    try {
      await mcp.connect(transport);
      const opened = await mcp.callTool({
        name: 'browser_navigate',
        arguments: { url: 'https://shop.example.test/' },
      });
      expect(textOf(opened)).toContain('Page Title: Shop');
      await new Promise((resolve) => setTimeout(resolve, 90_000));
      expect((await kernel.browsers.retrieve(session.session_id)).deleted_at).toBeFalsy();
      const later = await mcp.callTool({
        name: 'browser_evaluate',
        arguments: { function: "() => document.querySelector('#greeting').textContent" },
      });
      expect(later.isError).toBeFalsy();
      expect(textOf(later)).toContain('Welcome to the shop');
    } finally {
      await mcp.close();
      await kernel.browsers.deleteByID(session.session_id).catch(() => undefined);
    }
  }, 180_000);

  it('serves its MCP tools to the official SDK client over HTTP at /mcp and over stdio through xb mcp', async () => {
    const xbBin = join(
      dirname(createRequire(import.meta.url).resolve('@x/cli/package.json')),
      'dist/bin/xb.js',
    );
    const transports: [string, () => Transport][] = [
      [
        'http',
        () =>
          new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
            requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
          }),
      ],
      [
        'stdio',
        () =>
          new StdioClientTransport({
            command: process.execPath,
            args: [xbBin, 'mcp'],
            env: { PATH: process.env.PATH ?? '', XB_BASE_URL: server.url, XB_TOKEN: TOKEN },
            stderr: 'ignore',
          }),
      ],
    ];
    for (const [name, transport] of transports) {
      const mcp = new Client({ name: 'system-test', version: '1.0.0' });
      await mcp.connect(transport());
      const call = async (tool: string, args: Record<string, unknown> = {}) => {
        const result = (await mcp.callTool({ name: tool, arguments: args })) as CallToolResult;
        expect(result.isError, `${name} ${tool}: ${JSON.stringify(result.content[0])}`).toBeFalsy();
        return result;
      };
      const textOf = (result: CallToolResult) =>
        result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      try {
        const { tools } = await mcp.listTools();
        expect(
          tools.map((tool) => tool.name),
          name,
        ).toEqual(TOOL_NAMES);
        const created = JSON.parse(textOf(await call('manage_browsers', { action: 'create' })));
        const id = created.session_id as string;
        const read = await call('execute_playwright_code', {
          session_id: id,
          code: `await page.goto(${JSON.stringify(loopbackUrl)}); return await page.textContent('#greeting');`,
        });
        expect(textOf(read), name).toContain('Hello from loopback');
        const looked = await call('computer_action', {
          session_id: id,
          actions: [{ type: 'type_text', type_text: { text: 'hello' } }, { type: 'screenshot' }],
        });
        const image = looked.content.find((part) => part.type === 'image') as
          | { data: string; mimeType: string }
          | undefined;
        expect(image?.mimeType, name).toBe('image/png');
        expect(
          Buffer.from(image?.data ?? '', 'base64')
            .subarray(1, 4)
            .toString('latin1'),
        ).toBe('PNG');
        const context = JSON.parse(textOf(await call('get_connection_context')));
        expect(context.service, name).toBe(server.url);
        await call('manage_browsers', { action: 'delete', session_id: id });
        expect((await kernel.browsers.retrieve(id)).deleted_at, name).toBeTruthy();
      } finally {
        await mcp.close();
      }
    }
  }, 120_000);

  it('stops on SIGTERM with a browser, a process, a recording, a live view and a deploy in flight, leaving nothing on the host', async () => {
    const session = await kernel.browsers.create({ timeout_seconds: 120 });
    await kernel.browsers.process.spawn(session.session_id, { command: 'sleep', args: ['300'] });
    await kernel.browsers.replays.start(session.session_id);
    const viewer = await launchViewer();
    try {
      const view = await viewer.newPage();
      await view.goto(String(session.browser_live_view_url));
      // A deploy that is still installing when the stop comes.
      const slow = zipSync({
        'package.json': new TextEncoder().encode(
          JSON.stringify({ name: 'slow', type: 'module', scripts: { install: 'sleep 120' } }),
        ),
        'app.js': new TextEncoder().encode('export default 1;'),
      });
      const deployment = await kernel.deployments.create({
        file: await toFile(Buffer.from(slow), 'app.zip'),
        entrypoint_rel_path: 'app.js',
      });
      await expect
        .poll(async () => (await kernel.deployments.retrieve(deployment.id)).status, {
          timeout: 30_000,
        })
        .toBe('in_progress');
      const before = hostLeftovers(dataDir, server.output.stdout);
      expect(before.processes.length).toBeGreaterThan(0);
      expect(before.namespaces.length).toBeGreaterThan(0);
      server.child.kill('SIGTERM');
      const [code] = await once(server.child, 'exit');
      expect(code).toBe(0);
    } finally {
      await viewer.close();
    }
    const after = hostLeftovers(dataDir, server.output.stdout);
    expect(after).toEqual({
      processes: [],
      mounts: [],
      cgroups: [],
      namespaces: [],
      tables: [],
      routes: [],
      claims: [],
    });
    expect(processesOfServer(dataDir)).toEqual([]);
    expect(existsSync(join(dataDir, 'network'))).toBe(false);
  }, 180_000);

  it('reaps what a killed server left on the host when the next server starts, whatever its data directory', async () => {
    const start = (dir: string) => startShippedServer({ XB_DATA_DIR: dir, XB_TOKENS: TOKEN });
    const killedDir = join(mkdtempSync(join(tmpdir(), 'xb-system-killed-')), 'data');
    const killed = await start(killedDir);
    const created = await new Kernel({
      apiKey: TOKEN,
      baseURL: killed.url,
      maxRetries: 0,
    }).browsers.create({ timeout_seconds: 60 });
    expect(created.session_id).toBeTruthy();
    killed.child.kill('SIGKILL');
    await once(killed.child, 'exit');
    const left = hostLeftovers(killedDir, killed.output.stdout);
    expect(left.namespaces.length).toBeGreaterThan(0);
    expect(left.claims.length).toBeGreaterThan(0);
    // Another server, on a data directory of its own: the killed one never starts again.
    const next = await start(join(mkdtempSync(join(tmpdir(), 'xb-system-next-')), 'data'));
    try {
      const after = hostLeftovers(killedDir, killed.output.stdout);
      expect(after).toMatchObject({
        processes: [],
        mounts: [],
        namespaces: [],
        tables: [],
        claims: [],
      });
      // Its subnet's route is gone, or is the next server's now (the first free one).
      const nextSubnet = /"subnet":"([^"]+)"/.exec(next.output.stdout)?.[1] ?? 'none';
      for (const route of after.routes) expect(route).toContain(nextSubnet);
    } finally {
      next.child.kill('SIGTERM');
      await once(next.child, 'exit');
    }
  }, 120_000);
});

/** A process's resident memory, in bytes. */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}
