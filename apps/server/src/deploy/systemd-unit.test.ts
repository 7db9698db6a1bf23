import { execFileSync, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findExecutable } from '../system/executables.js';
import { startServerProcess } from '../test-support/binary.js';

const UNIT = new URL('../../deploy/xb-server.service', import.meta.url).pathname;
const ROOT = new URL('../../../../', import.meta.url).pathname;

/** The `[Service]` settings of a unit file: each key with its values, in order. */
function serviceSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      section = line;
      continue;
    }
    if (section !== '[Service]') continue;
    const equals = line.indexOf('=');
    const key = line.slice(0, equals);
    settings.set(key, [...(settings.get(key) ?? []), line.slice(equals + 1)]);
  }
  return settings;
}

/** `KEY=value` lines (an Environment= value or an EnvironmentFile line) as entries. */
const assignment = (line: string): [string, string] => {
  const equals = line.indexOf('=');
  return [line.slice(0, equals), line.slice(equals + 1)];
};

/**
 * pnpm as the repository's scripts run it: the pnpm running this test (its script under this
 * Node, so a time-out's kill reaches it, not a shell shim in front of it), else corepack's shim in
 * the checkout, else the PATH's.
 */
function pnpm(): [string, string[]] {
  const running = process.env.npm_execpath;
  if (running && /pnpm\.c?js$/.test(running)) return [process.execPath, [running]];
  const shim = join(ROOT, '.corepack-bin', 'pnpm');
  return [existsSync(shim) ? shim : 'pnpm', []];
}

describe('the systemd unit, installed as docs/operating.md says', () => {
  it('runs the pnpm deploy folder with the unit environment, reloads tokens on its ExecReload, stops on its KillSignal', async () => {
    // The install of the README, under a folder of its own standing for `/`.
    const host = mkdtempSync(join(tmpdir(), 'xb-unit-'));
    const at = (path: string) => join(host, path);
    const app = at('/opt/xb-server/app');
    // A legacy deploy resolves the package's dependencies again: from the metadata this machine
    // has cached where it can (--prefer-offline), from the registry for the rest.
    const [program, prefix] = pnpm();
    const deployed = spawnSync(
      program,
      [...prefix, '--filter', '@x/server', 'deploy', '--prod', '--legacy', '--prefer-offline', app],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', COREPACK_INTEGRITY_KEYS: '0' },
        timeout: 120_000,
        killSignal: 'SIGKILL',
      },
    );
    expect(deployed.status, `${deployed.stdout}${deployed.stderr}`).toBe(0);
    mkdirSync(at('/etc/xb-server'), { recursive: true });
    writeFileSync(at('/etc/xb-server/tokens'), 'xb_ops\nread-only xb_watch\n', { mode: 0o600 });
    // The operator's settings; a port of the test's choosing instead of 8080 on a shared host.
    writeFileSync(
      at('/etc/xb-server/env'),
      'XB_PUBLIC_URL=https://browsers.example.com\nXB_PORT=0\nXB_METRICS_PORT=0\n',
    );

    // The unit with every path moved under the folder; Node 24 is the registry package `node`,
    // the same that runs this test.
    const unit = readFileSync(UNIT, 'utf8')
      .replaceAll('/opt/xb-server/node/node_modules/node/bin/node', process.execPath)
      .replaceAll(/(\/opt\/xb-server\/app|\/var\/lib\/xb-server|\/etc\/xb-server)/g, (path) =>
        at(path),
      );
    const settings = serviceSettings(unit);
    const analyze = findExecutable('systemd-analyze');
    if (analyze) {
      const unitFile = at('/etc/systemd/system/xb-server.service');
      mkdirSync(join(unitFile, '..'), { recursive: true });
      writeFileSync(unitFile, unit);
      const verified = spawnSync(analyze, ['verify', unitFile], { encoding: 'utf8' });
      // It exits 0 on a setting it ignores: what it said must be nothing.
      expect([verified.status, verified.stderr]).toEqual([0, '']);
    }

    // What systemd would do: StateDirectory (0700), WorkingDirectory, Environment= then
    // EnvironmentFile= (which wins), ExecStart.
    const state = at('/var/lib/xb-server');
    mkdirSync(state, { recursive: true, mode: 0o700 });
    expect(settings.get('StateDirectory')).toEqual(['xb-server']);
    expect(settings.get('WorkingDirectory')).toEqual([state]);
    const environmentFile = settings.get('EnvironmentFile')?.[0]?.replace(/^-/, '') ?? '';
    const env = {
      PATH: process.env.PATH,
      ...Object.fromEntries((settings.get('Environment') ?? []).map(assignment)),
      ...Object.fromEntries(
        readFileSync(environmentFile, 'utf8').split('\n').filter(Boolean).map(assignment),
      ),
    };
    const command = (settings.get('ExecStart')?.[0] ?? '').split(' ');
    const server = await startServerProcess(command, env, state);
    const status = async (token: string) =>
      (await fetch(`${server.url}/browsers`, { headers: { authorization: `Bearer ${token}` } }))
        .status;

    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
      expect([await status('xb_ops'), await status('xb_watch'), await status('xb_new')]).toEqual([
        200, 200, 401,
      ]);
      const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        servers: unknown;
      };
      expect(openapi.servers).toEqual([{ url: 'https://browsers.example.com' }]);
      const listening = server.output.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg?: string; metricsUrl?: string; dataDir?: string })
        .find((line) => line.msg === 'listening');
      expect(listening?.dataDir).toBe(at('/var/lib/xb-server/data'));
      expect(statSync(at('/var/lib/xb-server/data')).mode & 0o777).toBe(0o700);
      const metrics = await fetch(`${listening?.metricsUrl}/metrics`);
      expect(await metrics.text()).toContain('# TYPE xb_requests_total counter');

      // `systemctl reload`: the unit's ExecReload, with $MAINPID the server's pid.
      writeFileSync(at('/etc/xb-server/tokens'), 'xb_new\n');
      const [reload, ...reloadArgs] = (settings.get('ExecReload')?.[0] ?? '')
        .replace('$MAINPID', String(server.child.pid))
        .split(' ');
      execFileSync(reload ?? '', reloadArgs);
      await expect.poll(() => status('xb_new'), { timeout: 10_000 }).toBe(200);
      expect(await status('xb_ops')).toBe(401);
    } finally {
      // `systemctl stop`: KillSignal, within TimeoutStopSec.
      const signal = settings.get('KillSignal')?.[0] as NodeJS.Signals;
      const started = Date.now();
      server.child.kill(signal);
      const [code] = await once(server.child, 'exit');
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(Number(settings.get('TimeoutStopSec')?.[0]) * 1000);
    }
  }, 180_000);
});
