import { type ChildProcess, execFile } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserSession } from '@x/types';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipesFolder } from '../startup/engines.js';
import { MAIN, startServerProcess } from '../test-support/binary.js';
import { openEgressSessions, visit } from '../test-support/egress-pages.js';
import { type FarHost, startFarHost } from '../test-support/far-host.js';
import { isAlive } from '../test-support/processes.js';
import { jsonCaller, TEST_TOKEN } from '../test-support/servers.js';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

/** The unprivileged user the server runs as here. */
const NOBODY = 65_534;

/** The repository: bound where `nobody` reaches it, whatever the folders above it allow. */
const REPOSITORY = join(MAIN, '../../../..');

/** A server on `address` counting the requests it gets, by path. */
function startCounter(
  address: string,
): Promise<{ server: Server; port: number; hits: (path?: string) => number }> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url ?? '');
    response.end('<p>counted</p>');
  });
  return new Promise((resolve) =>
    server.listen(0, address, () =>
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        hits: (path) => paths.filter((seen) => path === undefined || seen === path).length,
      }),
    ),
  );
}

/** The pids of `parent`'s children running `command` (read from /proc, ours only). */
function childrenOf(parent: number, command: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const comm = /\((.*)\)/.exec(stat)?.[1];
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === parent && comm === command ? [Number(name)] : [];
      } catch {
        return [];
      }
    });
}

/**
 * The unprivileged route of the egress policy: the built server runs as `nobody` (as in its
 * container), its sessions behind slirp4netns, and keeps the same policy as a root server.
 */
describe.skipIf(!isRoot)('egress policy of a server that is not root', () => {
  let loopback: Awaited<ReturnType<typeof startCounter>>;
  let hostAddress: Awaited<ReturnType<typeof startCounter>>;
  let far: FarHost;
  let server: { url: string; child: ChildProcess; output: { stdout: string; stderr: string } };
  let metricsUrl: string;
  let mount: string;
  let dataDir: string;
  const call = jsonCaller(() => server.url);
  const browsers: Browser[] = [];
  let closed: BrowserSession;
  let open: BrowserSession;
  let closedPage: Page;
  let openPage: Page;

  beforeAll(async () => {
    loopback = await startCounter('127.0.0.1');
    far = await startFarHost();
    // An address of the host itself, public-looking: refused like its loopback.
    hostAddress = await startCounter(far.hostAddress);
    // In the system's /tmp: the tests' own temporary folder is the runner's alone.
    dataDir = mkdtempSync('/tmp/xb-egress-unprivileged-');
    chownSync(dataDir, NOBODY, NOBODY);
    mount = mkdtempSync('/tmp/xb-repository-');
    chmodSync(mount, 0o755);
    mkdirSync(join(mount, 'r'));
    const inside = (path: string) =>
      path.startsWith(`${REPOSITORY}/`) ? join(mount, 'r', relative(REPOSITORY, path)) : path;
    // A mount namespace of its own binds the repository at a path anyone may walk; then the
    // server drops to nobody (no capability) and is that same process.
    server = await startServerProcess(
      [
        '/usr/bin/unshare',
        '--mount',
        '--propagation',
        'private',
        '/bin/sh',
        '-ec',
        'mount --bind "$1" "$2"; shift 2; exec "$@"',
        'sh',
        REPOSITORY,
        join(mount, 'r'),
        '/usr/bin/setpriv',
        `--reuid=${NOBODY}`,
        `--regid=${NOBODY}`,
        '--clear-groups',
        '--',
        inside(process.execPath),
        inside(MAIN),
      ],
      {
        PATH: '/usr/bin:/bin',
        HOME: dataDir,
        XB_DATA_DIR: dataDir,
        XB_PORT: '0',
        XB_METRICS_PORT: '0',
        XB_TOKENS: TEST_TOKEN,
        XB_LOG_LEVEL: 'debug',
        XB_ALLOW_NETWORKS: `127.0.0.1:${loopback.port}`,
        // Each browser's network stack is counted: no spare's beside them.
        XB_SPARE_BROWSERS: '0',
      },
      dataDir,
      true,
    );
    // The log line naming it may come just after the plain one.
    for (let tries = 0; !server.output.stdout.includes('"metricsUrl"') && tries < 50; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    metricsUrl = /"metricsUrl":"([^"]+)"/.exec(server.output.stdout)?.[1] as string;
    ({
      closed: { session: closed, page: closedPage },
      open: { session: open, page: openPage },
    } = await openEgressSessions(call, browsers));
  }, 120_000);

  afterAll(async () => {
    // A browser whose server is gone may never answer its close: not waited for long.
    for (const browser of browsers.splice(0))
      await Promise.race([
        browser.close().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 2_000)),
      ]);
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await once(server.child, 'exit');
    }
    far?.close();
    loopback?.server.close();
    hostAddress?.server.close();
    // The bind was the server's mount namespace's alone: the folder is empty here.
    if (mount) rmSync(mount, { recursive: true, force: true });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    // The server's secret key, beside its data directory.
    if (dataDir) rmSync(`${dataDir}.key`, { force: true });
    // Killed, the server left its processes' pipe folder (a restart would reuse it); it ran
    // without TMPDIR, so the folder is in /tmp.
    if (dataDir) rmSync(pipesFolder(dataDir, '/tmp'), { recursive: true, force: true });
  });

  /** The namespace holder of each session (the server's `sleep` children), open's and closed's. */
  async function holders(): Promise<{ open: number; closed: number }> {
    const found = { open: 0, closed: 0 };
    for (const pid of childrenOf(server.child.pid as number, 'sleep')) {
      const { stdout } = await asNobody(pid, ['/usr/sbin/nft', 'list', 'tables'], false);
      if (stdout.includes('xb_loopback')) found.open = pid;
      else found.closed = pid;
    }
    return found;
  }

  /**
   * Runs `command` in the session namespaces `pid` holds, as the server's sandbox does: as
   * nobody, entering them, then in a user namespace of its own below (`sandboxed`), with no
   * capability over the network it is in.
   */
  function asNobody(pid: number, command: string[], sandboxed = true) {
    const below = sandboxed
      ? [
          '/usr/bin/bwrap',
          '--unshare-user',
          '--uid',
          String(NOBODY),
          '--gid',
          String(NOBODY),
          '--ro-bind',
          '/',
          '/',
          '--dev',
          '/dev',
          '--proc',
          '/proc',
          '--',
        ]
      : [];
    return run('/usr/bin/setpriv', [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      '--clear-groups',
      '--',
      '/usr/bin/nsenter',
      '--preserve-credentials',
      '--user',
      '--net',
      `--target=${pid}`,
      '--',
      ...below,
      ...command,
    ]).then(
      (done) => ({ ok: true, stdout: done.stdout, output: done.stdout + done.stderr }),
      (error: { stdout?: string; stderr?: string }) => ({
        ok: false,
        stdout: error.stdout ?? '',
        output: error.stderr ?? '',
      }),
    );
  }

  it('runs as nobody, says which route it took, and shows each browser what it may reach', () => {
    expect(server.output.stdout).toContain('out through slirp4netns');
    expect(closed.network).toEqual({ allow: [] });
    expect(open.network).toEqual({ allow: [`127.0.0.1:${loopback.port}`] });
  });

  it('keeps public destinations reachable, and the loopback service the operator opened', async () => {
    expect((await visit(closedPage, `http://${far.publicAddress}:8080/`)).loaded).toBe(true);
    expect(await closedPage.textContent('p')).toBe('far ok');
    expect((await visit(openPage, `http://127.0.0.1:${loopback.port}/open`)).loaded).toBe(true);
    expect((await visit(openPage, `http://localhost:${loopback.port}/open`)).loaded).toBe(true);
    expect(loopback.hits('/open')).toBe(2);
  });

  it('refuses loopback, the server, metrics, metadata, private hosts and the host itself, fast', async () => {
    const attacks = [
      `http://127.0.0.1:${loopback.port}/attack`,
      `http://localhost:${loopback.port}/attack`,
      `http://127.1.2.3:${loopback.port}/attack`,
      `http://2130706433:${loopback.port}/attack`,
      `http://${far.publicAddress}:8080/redirect?to=${encodeURIComponent(`http://127.0.0.1:${loopback.port}/attack`)}`,
      // The user-mode stack's own door to the host's loopback.
      `http://10.0.2.2:${loopback.port}/attack`,
      server.url,
      metricsUrl,
      'http://169.254.169.254/',
      `http://${far.privateAddress}:8080/`,
      `http://${far.hostAddress}:${hostAddress.port}/`,
    ];
    for (const url of attacks) {
      const visited = await visit(closedPage, url);
      expect(visited.loaded, url).toBe(false);
      expect(visited.ms, url).toBeLessThan(5_000);
    }
    for (const url of [server.url, metricsUrl, `http://${far.hostAddress}:${hostAddress.port}/`])
      expect((await visit(openPage, url)).loaded, url).toBe(false);
    expect(loopback.hits('/attack')).toBe(0);
    expect(hostAddress.hits()).toBe(0);
  }, 120_000);

  it('keeps UDP inside the policy, and gives a session no way to change its network', async () => {
    const { closed: pid } = await holders();
    expect(pid).toBeGreaterThan(0);
    const send = (address: string) =>
      asNobody(pid, [
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
    const reached = await send(far.publicAddress);
    expect(reached.output).toBe('');
    await expect.poll(count, { timeout: 5000 }).toBeGreaterThan(before);
    const flush = await asNobody(pid, ['/usr/sbin/nft', 'flush', 'ruleset']);
    expect(flush.ok).toBe(false);
    expect(flush.output).toMatch(/Operation not permitted/);
    const down = await asNobody(pid, ['/usr/sbin/ip', 'link', 'set', 'eth0', 'down']);
    expect(down.ok).toBe(false);
    // The control: its page still loads a public host.
    expect((await visit(closedPage, `http://${far.publicAddress}:8080/`)).loaded).toBe(true);
  });

  it('counts refusals in /metrics and names them in the debug log', async () => {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(Number(/^xb_egress_blocked_total (\d+)/m.exec(text)?.[1] ?? 0)).toBeGreaterThan(0);
    await expect
      .poll(() => server.output.stdout, { timeout: 15_000 })
      .toMatch(new RegExp(`"session":"${closed.session_id}".*169\\.254\\.169\\.254:80/tcp`));
  });

  it('ends a session’s namespaces with it, and every one with a killed server', async () => {
    const { open: openHolder, closed: closedHolder } = await holders();
    const stacks = childrenOf(server.child.pid as number, 'slirp4netns');
    expect(stacks).toHaveLength(2);
    for (const browser of browsers.splice(0)) await browser.close();
    expect((await call('DELETE', `/browsers/${open.session_id}`)).status).toBe(204);
    expect(isAlive(openHolder)).toBe(false);
    expect(childrenOf(server.child.pid as number, 'slirp4netns')).toHaveLength(1);
    // Killed outright, the server leaves nothing running: the holder gets its parent-death
    // signal, the stack sees its exit descriptor close.
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');
    await expect
      .poll(() => [closedHolder, ...stacks].filter(isAlive), { timeout: 5_000 })
      .toEqual([]);
  });
});
