import { execFileSync, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserSession, Replay } from '@x/types';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { SERVER_OPTIONS } from './command-line.js';
import { parseTokensFile } from './http/tokens-file.js';
import { type RunningServer, startServer } from './server.js';
import { pipesFolder } from './startup/engines.js';
import { findExecutable } from './system/executables.js';
import { MAIN, startBinary } from './test-support/binary.js';
import { jsonCaller, testConfig } from './test-support/servers.js';
import { makeTestCa } from './test-support/test-ca.js';

const TOKEN = 'operator-test-token';
const quiet = pino({ level: 'silent' });

/** Runs `use` against a server on a data directory of its own, closed afterwards whatever happens. */
async function withServer(
  settings: Record<string, string> | ((dataDir: string) => Record<string, string>),
  use: (server: RunningServer, dataDir: string) => Promise<void>,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xb-operator-'));
  const extra = typeof settings === 'function' ? settings(dataDir) : settings;
  const server = await startServer(
    testConfig({
      XB_ALLOW_NETWORKS: '127.0.0.1/32',
      XB_DATA_DIR: dataDir,
      XB_PORT: '0',
      XB_TOKENS: TOKEN,
      ...extra,
    }),
    quiet,
  );
  try {
    await use(server, dataDir);
  } finally {
    await server.close();
  }
}

/** Runs the built xb-server with `args` until it exits by itself (it must, for these). */
function xbServer(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: mkdtempSync(join(tmpdir(), 'xb-cli-')),
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A GET with a Host header of the caller's choosing (fetch will not send one). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const call = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        headers: { host, authorization: `Bearer ${TOKEN}` },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    call.on('error', reject);
    call.end();
  });
}

describe('xb-server on the command line', () => {
  it('--help lists every setting with its flag, variable and default, and starts nothing', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'xb-help-'));
    const result = spawnSync(process.execPath, [MAIN, '--help'], { cwd, encoding: 'utf8' });
    expect(result.status).toBe(0);
    for (const option of SERVER_OPTIONS) {
      expect(result.stdout).toContain(`--${option.flag} ${option.value}`);
      expect(result.stdout).toContain(`(${option.env}; default ${option.defaultText})`);
    }
    expect(result.stdout).toContain('XB_TOKENS');
    expect(existsSync(join(cwd, '.xb-data'))).toBe(false);
  });

  it('--version and -v print the version and start nothing', () => {
    for (const flag of ['--version', '-v']) {
      const result = xbServer([flag]);
      expect([result.code, result.stdout]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+\n$/)]);
    }
  });

  it('an unknown flag, a stray argument or a bad value is one line on stderr and exit 2', () => {
    const cases: [string[], Record<string, string>, string][] = [
      [['--prot', '80'], {}, 'xb-server: unknown flag --prot. See `xb-server --help`.\n'],
      [['serve'], {}, 'xb-server: unexpected argument "serve". See `xb-server --help`.\n'],
      [
        ['--port', 'eighty'],
        {},
        'xb-server: XB_PORT must be a whole number, got "eighty". See `xb-server --help`.\n',
      ],
      [
        [],
        { XB_PUBLIC_URL: 'browsers.example.com' },
        'xb-server: XB_PUBLIC_URL must be an http(s) URL',
      ],
      [
        ['--database-url', 'mysql://xb:hunter2@db/xb'],
        {},
        'xb-server: XB_DATABASE_URL must be a PostgreSQL URL with a database',
      ],
    ];
    for (const [args, env, said] of cases) {
      const result = xbServer(args, env);
      expect([args.join(' '), result.code]).toEqual([args.join(' '), 2]);
      expect(result.stderr.startsWith(said) || result.stderr === said, result.stderr).toBe(true);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stdout).toBe('');
      // A URL that may hold a password is never repeated.
      expect(result.stderr).not.toContain('hunter2');
    }
  });

  it('refuses session settings the host cannot honour: one line on stderr, exit 2', () => {
    const ca = makeTestCa(['shop.example.test']);
    try {
      const site = join(mkdtempSync(join(tmpdir(), 'xb-site-')), 'site.pem');
      writeFileSync(site, ca.cert);
      const cases: [Record<string, string>, RegExp][] = [
        [{ XB_SESSION_CA_FILE: site }, /^xb-server: XB_SESSION_CA_FILE: .* is not a CA/],
        [
          { XB_SESSION_NAMESERVERS: '10.0.0.53', XB_ALLOW_NETWORKS: '*' },
          /^xb-server: XB_SESSION_NAMESERVERS has no effect with XB_ALLOW_NETWORKS=\*/,
        ],
      ];
      for (const [env, said] of cases) {
        const result = xbServer([], {
          ...env,
          XB_PORT: '0',
          XB_DATA_DIR: mkdtempSync(join(tmpdir(), 'xb-refused-')),
        });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toMatch(said);
      }
    } finally {
      ca.remove();
    }
  });

  it('takes a flag over its environment variable', async () => {
    const flagged = mkdtempSync(join(tmpdir(), 'xb-flag-'));
    const fromEnv = mkdtempSync(join(tmpdir(), 'xb-env-'));
    // startBinary sets XB_DATA_DIR to `fromEnv`; the flags name others.
    const server = await startBinary(
      fromEnv,
      { XB_TOKENS: TOKEN, XB_PUBLIC_URL: 'http://env.example.com' },
      ['--data-dir', flagged, '--public-url', 'https://flag.example.com'],
    );
    try {
      const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        servers: { url: string }[];
      };
      expect(openapi.servers).toEqual([{ url: 'https://flag.example.com' }]);
      expect(readdirSync(flagged).length).toBeGreaterThan(0);
      expect(readdirSync(fromEnv)).toEqual([]);
      // Without a tokens file, SIGHUP (a `systemctl reload`) leaves the server running.
      server.child.kill('SIGHUP');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(server.child.exitCode).toBeNull();
      expect((await fetch(`${server.url}/livez`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  });
});

describe('the URLs a server hands out', () => {
  it('come from XB_PUBLIC_URL (https gives wss), never from a Host header, after a restart too', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-public-'));
    const settings = {
      XB_DATA_DIR: dataDir,
      XB_PORT: '0',
      XB_TOKENS: TOKEN,
      XB_PUBLIC_URL: 'https://browsers.example.com',
    };
    /** Whether `url` is on the public origin, at `path` (and whatever follows it). */
    const https = (path: string) => (url: unknown) =>
      typeof url === 'string' && url.startsWith(`https://browsers.example.com${path}`);
    let server = await startServer(testConfig(settings), quiet);
    const call = jsonCaller(() => server.url, TOKEN);
    try {
      expect(server.publicUrl).toBe('https://browsers.example.com');
      const { json: session } = await call<BrowserSession>('POST', '/browsers', {});
      const id = session.session_id;
      expect(session.cdp_ws_url).toMatch(
        new RegExp(`^wss://browsers\\.example\\.com/browsers/${id}/cdp\\?jwt=`),
      );
      expect(session.browser_live_view_url).toSatisfy(https(`/browsers/${id}/live?jwt=`));
      expect(session.base_url).toBe(`https://browsers.example.com/browsers/${id}`);
      const read = await getWithHost(`${server.url}/browsers/${id}`, 'evil.example');
      expect(JSON.parse(read.body).cdp_ws_url).toMatch(/^wss:\/\/browsers\.example\.com\//);
      const link = await call<{ url: string }>('POST', `/browsers/${id}/live_view`, {
        mode: 'read',
      });
      expect(link.json.url).toSatisfy(https(`/browsers/${id}/live?jwt=`));
      const replay = await call<Replay>('POST', `/browsers/${id}/replays`, {});
      await call('POST', `/browsers/${id}/replays/${replay.json.replay_id}/stop`);
      const replays = await call<Replay[]>('GET', `/browsers/${id}/replays`);
      expect(replays.json[0]?.replay_view_url).toSatisfy(
        https(`/browsers/${id}/replays/${replay.json.replay_id}/view?jwt=`),
      );
      const openapi = await getWithHost(`${server.url}/openapi.json`, 'evil.example');
      expect(JSON.parse(openapi.body).servers).toEqual([{ url: 'https://browsers.example.com' }]);
      await call('DELETE', `/browsers/${id}`);
      expect((await call('POST', '/browser_pools', { name: 'kept', size: 1 })).status).toBe(201);
      // Pool browsers started by the next run, before anyone called it, name the public URL too.
      await server.close();
      server = await startServer(testConfig(settings), quiet);
      const lease = await call<BrowserSession>('POST', '/browser_pools/kept/acquire', {});
      expect(lease.json.cdp_ws_url).toMatch(/^wss:\/\/browsers\.example\.com\/browsers\//);
      expect(lease.json.base_url).toBe(
        `https://browsers.example.com/browsers/${lease.json.session_id}`,
      );
    } finally {
      await server.close();
    }
  });

  it('come from the bind address without one, never from a Host header', async () => {
    await withServer({}, async (server) => {
      expect(server.publicUrl).toBe(server.url);
      const openapi = await getWithHost(`${server.url}/openapi.json`, 'evil.example:9');
      expect(JSON.parse(openapi.body).servers).toEqual([{ url: server.url }]);
    });
  });
});

describe('health', () => {
  it('/livez answers while /readyz says 503 with the reason when Chromium is missing', async () => {
    await withServer(
      (dataDir) => ({ CHROME_PATH: join(dataDir, 'no-chromium') }),
      async (server, dataDir) => {
        const live = await fetch(`${server.url}/livez`);
        expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(await ready.json()).toEqual({
          status: 'not ready',
          reasons: [`Chromium not found at ${join(dataDir, 'no-chromium')} (set CHROME_PATH)`],
        });
      },
    );
  });

  it("/readyz says 503 when bubblewrap cannot make a session's sandbox (a container's /proc)", async () => {
    // A bwrap that refuses what a container without its own /proc refuses, and does the rest.
    const bin = mkdtempSync(join(tmpdir(), 'xb-bwrap-'));
    const real = findExecutable('bwrap') as string;
    writeFileSync(
      join(bin, 'bwrap'),
      `#!/bin/sh\ncase " $* " in *" --proc /proc "*) echo "bwrap: Can't mount proc on /newroot/proc: Operation not permitted" >&2; exit 1;; esac\nexec ${real} "$@"\n`,
      { mode: 0o755 },
    );
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      await withServer({}, async (server) => {
        const ready = await fetch(`${server.url}/readyz`);
        expect([ready.status, await ready.json()]).toEqual([
          503,
          {
            status: 'not ready',
            reasons: [
              "bubblewrap cannot make a sandbox here (bwrap: Can't mount proc on /newroot/proc: Operation not permitted)",
            ],
          },
        ]);
      });
    } finally {
      process.env.PATH = path;
    }
  });

  it.runIf(process.getuid?.() === 0)(
    '/readyz says 503 when the data directory cannot be written, and 200 when it can again',
    async () => {
      await withServer({}, async (server, dataDir) => {
        // Immutable: not even root may add a file to it.
        execFileSync('chattr', ['+i', dataDir]);
        try {
          const ready = await fetch(`${server.url}/readyz`);
          expect([ready.status, await ready.json()]).toEqual([
            503,
            {
              status: 'not ready',
              reasons: [`the data directory ${dataDir} is not writable (EPERM)`],
            },
          ]);
        } finally {
          execFileSync('chattr', ['-i', dataDir]);
        }
        expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      });
    },
  );

  it('/readyz is 200 on a host with everything, needing no token', async () => {
    await withServer({}, async (server) => {
      const ready = await fetch(`${server.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
    });
  });
});

/** Polls `check` until it holds, for up to 5 s. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('did not happen within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a stop', () => {
  it("removes the processes' pipe folder it made in the system temp folder", async () => {
    let pipes = '';
    await withServer({}, async (_server, dataDir) => {
      pipes = pipesFolder(dataDir);
      expect(existsSync(pipes)).toBe(true);
    });
    expect(existsSync(pipes)).toBe(false);
  });
});

describe('tokens from a file', () => {
  it('reads tokens and read-only tokens, and refuses a line it does not understand', () => {
    expect(parseTokensFile('# ops\nxb_alpha\n\nread-only xb_viewer\r\n  xb_beta  \n')).toEqual({
      tokens: ['xb_alpha', 'xb_beta'],
      readOnlyTokens: ['xb_viewer'],
    });
    for (const bad of ['two words', 'read-only', 'read-only a b', 'tök\u00e9n']) {
      expect(() => parseTokensFile(bad), bad).toThrow(/line 1/);
    }
  });

  it('takes a token added and drops one removed while a session runs, without a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-tokens-'));
    const folder = mkdtempSync(join(tmpdir(), 'xb-tokens-file-'));
    const file = join(folder, 'tokens');
    writeFileSync(file, 'xb_first\nread-only xb_reader\n');
    const server = await startBinary(dataDir, { XB_TOKENS_FILE: file });
    const status = async (token: string, path = '/browsers') =>
      (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } }))
        .status;
    try {
      const created = await fetch(`${server.url}/browsers`, {
        method: 'POST',
        headers: { authorization: 'Bearer xb_first', 'content-type': 'application/json' },
        body: '{}',
      });
      const session = (await created.json()) as { session_id: string };
      expect(await status('xb_second')).toBe(401);
      expect(await status('xb_reader')).toBe(200);
      // Written in place: the new token works without a restart.
      writeFileSync(file, 'xb_first\nxb_second\n');
      await eventually(async () => (await status('xb_second')) === 200);
      expect(await status('xb_reader')).toBe(401);
      // Replaced by a rename, as config tools do: the removed token stops working.
      writeFileSync(`${file}.new`, 'xb_second\n');
      renameSync(`${file}.new`, file);
      await eventually(async () => (await status('xb_first')) === 401);
      const alive = await fetch(`${server.url}/browsers/${session.session_id}`, {
        headers: { authorization: 'Bearer xb_second' },
      });
      expect(((await alive.json()) as { deleted_at?: string }).deleted_at).toBeUndefined();
      // A broken file is logged and the tokens in force stay.
      writeFileSync(file, 'xb_second\nnot a token\n');
      await eventually(async () => server.output.stdout.includes('tokens file not taken'));
      expect(await status('xb_second')).toBe(200);
      // SIGHUP re-reads it too.
      writeFileSync(file, 'xb_third\n');
      server.child.kill('SIGHUP');
      await eventually(async () => (await status('xb_third')) === 200);
      expect(await status('xb_second')).toBe(401);
      expect(server.output.stdout).not.toContain('xb_third');
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  });

  it('will not start on a tokens file it cannot use, and says why in one line', () => {
    const folder = mkdtempSync(join(tmpdir(), 'xb-tokens-bad-'));
    writeFileSync(join(folder, 'tokens'), 'xb_ok\nthree word line\n');
    const broken = xbServer(['--data-dir', join(folder, 'data'), '--port', '0'], {
      XB_TOKENS_FILE: join(folder, 'tokens'),
    });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe(
      `xb-server: the tokens file ${join(folder, 'tokens')} cannot be used: line 2 is not a token or "read-only <token>" (printable ASCII, no spaces, ≤ 512 characters)\n`,
    );
    const missing = xbServer(['--data-dir', join(folder, 'data2'), '--port', '0'], {
      XB_TOKENS_FILE: join(folder, 'nothing'),
    });
    expect(missing.stderr).toContain('cannot be read (ENOENT)');
  });
});

/** The value of one sample of a Prometheus text scrape (0 when absent). */
function sample(text: string, name: string, labels = ''): number {
  const line = text
    .split('\n')
    .find((entry) => entry.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('metrics', () => {
  it('GET /metrics needs a token, speaks Prometheus text, and moves with the calls', async () => {
    await withServer({ XB_READ_ONLY_TOKENS: 'reader-token' }, async (server) => {
      const scrape = async () => {
        const answer = await fetch(`${server.url}/metrics`, {
          headers: { authorization: 'Bearer reader-token' },
        });
        expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        return answer.text();
      };
      const call = (path: string, init: RequestInit = {}) =>
        fetch(`${server.url}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        });
      expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
      const before = await scrape();
      for (let index = 0; index < 3; index++) await call('/browser_pools/nothing-here');
      const session = (await (await call('/browsers', { method: 'POST', body: '{}' })).json()) as {
        session_id: string;
        cdp_ws_url: string;
        browser_live_view_url: string;
      };
      // A live view viewer is counted while it watches.
      const live = new URL(session.browser_live_view_url);
      const viewer = new WebSocket(`ws://${live.host}${live.pathname}/ws${live.search}`);
      await new Promise((resolve) => {
        viewer.onmessage = resolve;
      });
      expect(sample(await scrape(), 'xb_live_viewers')).toBe(1);
      viewer.close();
      // DevTools traffic through the session URL is counted both ways.
      const socket = new WebSocket(session.cdp_ws_url);
      await new Promise((resolve, reject) => {
        socket.onopen = resolve;
        socket.onerror = reject;
      });
      const answered = new Promise((resolve) => {
        socket.onmessage = resolve;
      });
      socket.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' }));
      await answered;
      socket.close();
      const after = await scrape();
      const notFound = 'operation="browserPools.get",status="404"';
      expect(
        sample(after, 'xb_requests_total', notFound) -
          sample(before, 'xb_requests_total', notFound),
      ).toBe(3);
      expect(sample(after, 'xb_sessions', 'state="active"')).toBe(1);
      expect(sample(after, 'xb_browser_create_seconds_count')).toBe(1);
      // Each step of the start is timed; the steps add up to no more than the create took.
      const steps = ['home', 'chromium', 'first_page', 'devtools'].map((phase) =>
        sample(after, 'xb_browser_start_phase_seconds_sum', `phase="${phase}"`),
      );
      for (const seconds of steps) expect(seconds).toBeGreaterThan(0);
      expect(steps.reduce((a, b) => a + b)).toBeLessThanOrEqual(
        sample(after, 'xb_browser_create_seconds_sum'),
      );
      expect(sample(after, 'xb_cdp_relayed_bytes_total', 'direction="to_browser"')).toBeGreaterThan(
        30,
      );
      expect(sample(after, 'xb_cdp_relayed_bytes_total', 'direction="to_client"')).toBeGreaterThan(
        30,
      );
      expect(sample(after, 'xb_server_process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
      await expect
        .poll(async () => sample(await scrape(), 'xb_live_viewers'), { timeout: 10_000 })
        .toBe(0);
      // A process, a watch and a recording on the session are counted while they run.
      const id = session.session_id;
      const post = (path: string, body: unknown) =>
        call(path, { method: 'POST', body: JSON.stringify(body) });
      expect(
        (await post(`/browsers/${id}/process/spawn`, { command: 'sleep', args: ['60'] })).status,
      ).toBe(200);
      expect((await post(`/browsers/${id}/fs/watch`, { path: '/home/browser' })).status).toBe(201);
      expect((await post(`/browsers/${id}/replays`, {})).status).toBe(201);
      const busy = await scrape();
      expect(
        ['xb_processes', 'xb_watches', 'xb_replays_recording'].map((name) => sample(busy, name)),
      ).toEqual([1, 1, 1]);
      // A pool's browsers, available then acquired, and the acquire's wait.
      expect((await post('/browser_pools', { name: 'scraped', size: 1 })).status).toBe(201);
      const pool = (state: string) => `project="default",pool="scraped",state="${state}"`;
      await expect
        .poll(async () => sample(await scrape(), 'xb_pool_browsers', pool('available')), {
          timeout: 20_000,
        })
        .toBe(1);
      expect((await post('/browser_pools/scraped/acquire', {})).status).toBe(200);
      const leased = await scrape();
      expect(sample(leased, 'xb_pool_browsers', pool('acquired'))).toBe(1);
      expect(sample(leased, 'xb_pool_browsers', pool('available'))).toBe(0);
      expect(sample(leased, 'xb_pool_acquire_wait_seconds_count', 'outcome="acquired"')).toBe(1);
      expect(sample(leased, 'xb_sessions', 'state="active"')).toBe(2);
      await call('/browser_pools/scraped?force=true', { method: 'DELETE' });
      await call(`/browsers/${id}`, { method: 'DELETE' });
      const ended = await scrape();
      expect(
        ['xb_processes', 'xb_watches', 'xb_replays_recording'].map((name) => sample(ended, name)),
      ).toEqual([0, 0, 0]);
      expect(sample(ended, 'xb_sessions', 'state="active"')).toBe(0);
    });
  });

  it('serves them without a token on the loopback metrics port, and nothing else there', async () => {
    await withServer({ XB_METRICS_PORT: '0' }, async (server) => {
      const port = new URL(server.metricsUrl ?? '').port;
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('# TYPE xb_requests_total counter');
      expect((await fetch(`http://127.0.0.1:${port}/browsers`)).status).toBe(404);
      // A pool is named there by its id: anyone on the host reaches the port, and a pool's
      // name is its owner's words. With a token, /metrics names it.
      const created = await fetch(`${server.url}/browser_pools`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'acme-payroll', size: 1 }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const anonymous = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(anonymous).toMatch(
        new RegExp(`xb_pool_browsers\\{project="default",pool="${id}",state="available"\\} [01]`),
      );
      expect(anonymous).not.toContain('acme-payroll');
      const named = await (
        await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).text();
      expect(named).toMatch(
        /xb_pool_browsers\{project="default",pool="acme-payroll",state="available"\} [01]/,
      );
      await fetch(`${server.url}/browser_pools/${id}?force=true`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
    });
  });
});
