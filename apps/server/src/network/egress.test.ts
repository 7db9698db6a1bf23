import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserSession } from '@x/types';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server.js';
import { openEgressSessions, visit } from '../test-support/egress-pages.js';
import { type FarHost, startFarHost } from '../test-support/far-host.js';
import { jsonCaller, TEST_TOKEN, testConfig } from '../test-support/servers.js';
import { tableRules } from './nft-rules.js';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

/**
 * A server on loopback that counts every request and WebSocket upgrade it gets, by the address
 * it came from (a session's own, once the host maps it): the target.
 */
function startCanary(): Promise<{ server: Server; port: number; hits: (from?: string) => number }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.socket.remoteAddress ?? '');
    response.end('<p>canary</p>');
  });
  server.on('upgrade', (request, socket) => {
    hits.push(request.socket.remoteAddress ?? '');
    socket.destroy();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        hits: (from) => hits.filter((address) => from === undefined || address === from).length,
      }),
    ),
  );
}

describe.skipIf(!isRoot)('egress policy: where a session page may go', () => {
  let canary: Awaited<ReturnType<typeof startCanary>>;
  let far: FarHost;
  let server: RunningServer;
  const browsers: Browser[] = [];
  const call = jsonCaller(() => server.url);
  let closed: BrowserSession;
  let open: BrowserSession;
  let closedPage: Page;
  let openPage: Page;

  beforeAll(async () => {
    canary = await startCanary();
    far = await startFarHost(({ publicAddress }) => ({
      'rebind.test': '127.0.0.1',
      'far.test': publicAddress,
    }));
    server = await startServer(
      {
        ...testConfig({
          XB_DATA_DIR: mkdtempSync(join(tmpdir(), 'xb-egress-')),
          XB_PORT: '0',
          XB_TOKENS: TEST_TOKEN,
          XB_METRICS_PORT: '0',
          // The canary, and only it, is open to sessions that do not narrow it.
          XB_ALLOW_NETWORKS: `127.0.0.1:${canary.port}`,
        }),
        // The far host's DNS server answers the sessions' names, rebinding ones included.
        sessionNameservers: [{ address: far.privateAddress, port: 53 }],
      },
      pino({ level: process.env.XB_TEST_LOG ?? 'silent' }),
    );
    ({
      closed: { session: closed, page: closedPage },
      open: { session: open, page: openPage },
    } = await openEgressSessions(call, browsers));
  }, 120_000);

  afterAll(async () => {
    for (const browser of browsers) await browser.close().catch(() => undefined);
    await server?.close();
    far?.close();
    canary?.server.close();
  });

  it('shows what each browser may reach on its record', () => {
    expect(closed.network).toEqual({ allow: [] });
    expect(open.network).toEqual({ allow: [`127.0.0.1:${canary.port}`] });
  });

  it('refuses a browser or pool asking for more than the operator opened, naming the entry', async () => {
    const wide = await call<{ message: string }>('POST', '/browsers', {
      network: { allow: ['10.0.0.0/8'] },
    });
    expect(wide.status).toBe(400);
    expect(wide.json.message).toContain('body.network.allow[0]');
    expect(wide.json.message).toContain('10.0.0.0/8');
    expect(wide.json.message).toContain(`127.0.0.1:${canary.port}`);
    const otherPort = await call<{ message: string }>('POST', '/browsers', {
      network: { allow: [`127.0.0.1:${canary.port}`, '127.0.0.1:1'] },
    });
    expect(otherPort.status).toBe(400);
    expect(otherPort.json.message).toContain('body.network.allow[1]');
    const bad = await call<{ message: string }>('POST', '/browsers', {
      network: { allow: ['10.1.2.3/16'] },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('did you mean 10.1.0.0/16');
    const v6 = await call('POST', '/browsers', { network: { allow: ['::1'] } });
    expect(v6.status).toBe(400);
    expect(JSON.stringify(v6.json)).toContain('IPv6');
    const pool = await call<{ message: string }>('POST', '/browser_pools', {
      size: 1,
      network: { allow: ['169.254.169.254/32'] },
    });
    expect(pool.status).toBe(400);
    expect(pool.json.message).toContain('169.254.169.254/32');
  });

  it('keeps public destinations reachable, by address and by name', async () => {
    expect((await visit(closedPage, `http://${far.publicAddress}:8080/`)).loaded).toBe(true);
    expect(await closedPage.textContent('p')).toBe('far ok');
    expect((await visit(closedPage, 'http://far.test:8080/')).loaded).toBe(true);
    expect((await visit(openPage, `http://${far.publicAddress}:8080/`)).loaded).toBe(true);
  });

  it('keeps them reachable beside the policy of another server on this host, a killed one’s left behind too', async () => {
    // What a server killed outright leaves until its next start: its table, forwarding on.
    const leftover = tableRules({
      table: 'xb_dead',
      interfacePrefix: 'xbdeadh',
      subnet: '10.199.0.0/16',
      hostLoopback: '10.199.255.254',
      dropOtherForwarding: true,
    });
    const nft = spawnSync('nft', ['-f', '-'], { input: leftover, encoding: 'utf8' });
    expect(nft.status, nft.stderr).toBe(0);
    try {
      expect((await visit(closedPage, `http://${far.publicAddress}:8080/`)).loaded).toBe(true);
      expect(await closedPage.textContent('p')).toBe('far ok');
    } finally {
      spawnSync('nft', ['delete', 'table', 'inet', 'xb_dead']);
    }
  });

  it('lets a browser reach the loopback service the operator opened (the control)', async () => {
    const before = canary.hits();
    expect((await visit(openPage, `http://127.0.0.1:${canary.port}/`)).loaded).toBe(true);
    expect(await openPage.textContent('p')).toBe('canary');
    expect((await visit(openPage, `http://localhost:${canary.port}/`)).loaded).toBe(true);
    expect(canary.hits()).toBeGreaterThan(before);
  });

  it('refuses loopback, the server, metrics, metadata and private hosts fast, by any spelling', async () => {
    const closedAddress = server.instance(closed.session_id).network?.address;
    expect(closedAddress).toBeDefined();
    const attacks = [
      `http://127.0.0.1:${canary.port}/`,
      `http://localhost:${canary.port}/`,
      `http://127.1.2.3:${canary.port}/`,
      `http://2130706433:${canary.port}/`,
      `http://0x7f000001:${canary.port}/`,
      `http://rebind.test:${canary.port}/`,
      `http://${far.publicAddress}:8080/redirect?to=${encodeURIComponent(`http://127.0.0.1:${canary.port}/`)}`,
      server.url,
      server.metricsUrl as string,
      'http://169.254.169.254/',
      `http://${far.privateAddress}:8080/`,
    ];
    for (const url of attacks) {
      const visited = await visit(closedPage, url);
      expect(visited.loaded, url).toBe(false);
      // A refusal, not a hang until the time-out.
      expect(visited.ms, url).toBeLessThan(5_000);
    }
    // The open browser reaches the canary's port, and nothing else of the host's loopback.
    for (const url of [server.url, server.metricsUrl as string, `http://127.1.2.3:${canary.port}/`])
      expect((await visit(openPage, url)).loaded, url).toBe(false);
    expect((await visit(openPage, `http://${far.privateAddress}:8080/`)).loaded).toBe(false);
    expect(canary.hits(closedAddress)).toBe(0);
  }, 120_000);

  it("refuses a page's no-cors fetch and WebSocket to loopback and private hosts", async () => {
    // From a page of a host the session may reach, in a tab of its own: the refused visits of
    // the test before can still end in the session's first tab (an error page committed late),
    // which would interrupt the visit or take the script's context with it.
    const page = await closedPage.context().newPage();
    try {
      const visited = await visit(page, `http://${far.publicAddress}:8080/`);
      expect(visited.loaded, visited.error).toBe(true);
      const outcome = await page.evaluate(probeScript, {
        targets: [
          `http://127.0.0.1:${canary.port}/no-cors`,
          `http://${far.privateAddress}:8080/`,
          'http://169.254.169.254/latest/meta-data/',
        ],
        socket: `ws://127.0.0.1:${canary.port}/socket`,
      });
      expect(outcome).toEqual(['refused', 'refused', 'refused', 'refused']);
    } finally {
      await page.close();
    }
    expect(canary.hits(server.instance(closed.session_id).network?.address)).toBe(0);
  });

  /** What a page tries: no-cors fetches of `targets` and a WebSocket to `socket`. */
  const probeScript = async ({ targets, socket }: { targets: string[]; socket: string }) => {
    const results: string[] = [];
    for (const target of targets)
      results.push(
        await fetch(target, { mode: 'no-cors' }).then(
          () => 'reached',
          () => 'refused',
        ),
      );
    results.push(
      await new Promise<string>((resolve) => {
        const ws = new WebSocket(socket);
        ws.onopen = () => resolve('reached');
        ws.onerror = () => resolve('refused');
      }),
    );
    return results;
  };

  /** Runs a command in a session's network namespace as its user, with no capability. */
  async function asSession(session: BrowserSession, command: string[]) {
    const { network, user } = server.instance(session.session_id);
    if (!network || !user) throw new Error('the session has no network or user of its own');
    return run('/usr/bin/nsenter', [
      ...network.join.nsenter,
      '--',
      '/usr/bin/setpriv',
      `--reuid=${user.uid}`,
      `--regid=${user.gid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      ...command,
    ]).then(
      (done) => ({ ok: true, output: done.stdout + done.stderr }),
      (error: { stderr?: string }) => ({ ok: false, output: error.stderr ?? '' }),
    );
  }

  it('keeps UDP inside the policy: private refused, public reached', async () => {
    const send = (address: string) =>
      asSession(closed, [
        '/usr/bin/python3',
        '-c',
        `import socket\ns=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\nfor _ in range(5):\n  try: s.sendto(b'x',('${address}',9999))\n  except OSError: pass`,
      ]);
    const count = async () =>
      Number(await (await fetch(`http://${far.privateAddress}:8080/udp`)).text());
    const before = await count();
    const sent = await send(far.privateAddress);
    expect(sent.output).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await count()).toBe(before);
    await send(far.publicAddress);
    await expect.poll(count, { timeout: 5000 }).toBeGreaterThan(before);
  });

  it('gives a session no way to change its own network', async () => {
    const flush = await asSession(closed, ['/usr/sbin/nft', 'flush', 'ruleset']);
    expect(flush.ok).toBe(false);
    expect(flush.output).toMatch(/Operation not permitted/);
    const down = await asSession(closed, ['/usr/sbin/ip', 'link', 'set', 'eth0', 'down']);
    expect(down.ok).toBe(false);
    // A user namespace of its own gives it no power over the network it was put in.
    const nested = await asSession(closed, [
      '/usr/bin/unshare',
      '--user',
      '--map-root-user',
      '/usr/sbin/nft',
      'flush',
      'ruleset',
    ]);
    expect(nested.ok).toBe(false);
    // The control: the same page still loads a public host.
    expect((await visit(closedPage, `http://${far.publicAddress}:8080/`)).loaded).toBe(true);
  });

  it("sends none of Chromium's background requests but the two it has no switch for", async () => {
    // Chromium's own requests at start (the sessions above started a while ago) ask the
    // sessions' nameserver, the far host, for their names.
    const asked = async () =>
      new Set((await (await fetch(`http://${far.privateAddress}:8080/dns`)).json()) as string[]);
    await expect
      .poll(async () => (await asked()).has('accounts.google.com'), { timeout: 15_000 })
      .toBe(true);
    const google = [...(await asked())].filter(
      (name) => name.endsWith('.google.com') || name.endsWith('.googleapis.com'),
    );
    expect(google.sort()).toEqual(['accounts.google.com', 'update.googleapis.com']);
  });

  it('counts refused connections in /metrics', async () => {
    const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
    const count = Number(/^xb_egress_blocked_total (\d+)/m.exec(text)?.[1] ?? 0);
    expect(count).toBeGreaterThan(0);
  });

  it('removes a session’s namespace when it ends', async () => {
    const { network } = server.instance(open.session_id);
    const file = network?.join.nsenter[0]?.replace(/^--net=/, '') as string;
    expect(file).toMatch(/^\/run\/netns\/xb-/);
    expect(existsSync(file)).toBe(true);
    expect((await call('DELETE', `/browsers/${open.session_id}`)).status).toBe(204);
    expect(existsSync(file)).toBe(false);
  });
});
