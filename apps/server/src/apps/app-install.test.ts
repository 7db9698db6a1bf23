import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NetworkEntry } from '@x/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { registryNetworks, useAppRunner } from '../test-support/app-runners.js';
import type { AppInstallRequest, AppLogLine } from './app-runner.js';
import { npmSetupOf } from './npm-setup.js';

/** A small app of the public Kernel app framework, whose SDK comes from the registry. */
const APP = `
import { Kernel, type KernelContext } from '@onkernel/sdk';
import isNumber from 'is-number';

new Kernel().app('checker').action('check', async (_ctx: KernelContext, payload?: { value: unknown }) =>
  ({ isNumber: isNumber(payload?.value) }));
`;

const apps = useAppRunner({ network: true });
/** What the operator opens to installs: the registry. */
let registry: NetworkEntry[];

beforeAll(async () => {
  registry = await registryNetworks();
  mkdirSync(join(apps.root, 'deployments'));
});

/** An install of the files given (written as a zip unpacks them), into a new target. */
function install(
  files: Record<string, string>,
  overrides: Partial<AppInstallRequest> = {},
): { request: AppInstallRequest; lines: AppLogLine[] } {
  const lines: AppLogLine[] = [];
  const id = `dep_${Math.random().toString(36).slice(2, 10)}`;
  return {
    lines,
    request: {
      id,
      timeoutMs: 180_000,
      allowNetworks: registry,
      target: join(apps.root, 'deployments', id),
      maxBytes: 200 * 1024 * 1024,
      npm: npmSetupOf(),
      onLog: (line) => lines.push(line),
      unpack: async (folder) => {
        mkdirSync(folder, { recursive: true });
        for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
      },
      ...overrides,
    },
  };
}

describe('installing a deployment', () => {
  it('installs its dependencies from the registry in its sandbox, and the code then uses them', async () => {
    const { request, lines } = install({
      'package.json': JSON.stringify({
        name: 'checker',
        type: 'module',
        dependencies: { '@onkernel/sdk': '0.84.0', 'is-number': '7.0.0' },
      }),
      'app.ts': APP,
    });
    const installed = await apps.runner.install(request);
    expect(installed, lines.map((line) => line.message).join('\n')).toMatchObject({ ok: true });
    expect(existsSync(join(request.target, 'node_modules', 'is-number', 'package.json'))).toBe(
      true,
    );
    // The server's own files now, readable by the users the code runs as.
    expect(statSync(join(request.target, 'app.ts')).uid).toBe(process.getuid?.());
    apps.expectNothingLeft();

    const run = {
      id: 'inv_check',
      folder: request.target,
      entrypoint: 'app.ts',
      env: { KERNEL_API_KEY: 'key' },
      timeoutMs: 30_000,
      allowNetworks: [],
    };
    expect(await apps.runner.discover(run)).toEqual({
      ok: true,
      apps: [{ name: 'checker', actions: [{ name: 'check' }] }],
    });
    expect(
      await apps.runner.invoke(run, {
        app: 'checker',
        action: 'check',
        invocationId: 'inv_check',
        payload: '{"value":"12"}',
      }),
    ).toEqual({ ok: true, output: '{"isNumber":true}' });
    apps.expectNothingLeft();
  }, 240_000);

  it('ends as failed with npm’s reason when a dependency cannot be installed, leaving nothing', async () => {
    const { request } = install({
      'package.json': JSON.stringify({
        name: 'broken',
        dependencies: { 'xb-no-such-package-for-sure-7f3a9': '1.0.0' },
      }),
    });
    const outcome = await apps.runner.install(request);
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.reason).toMatch(
      /^npm install failed \(exit code \d+\).*(404|E404|Not Found)/s,
    );
    expect(existsSync(request.target)).toBe(false);
    apps.expectNothingLeft();
  }, 240_000);

  it('keeps no mode the code chose that could matter on the host: no set-user-id, no world write', async () => {
    const { request } = install({
      'package.json': JSON.stringify({
        name: 'modes',
        scripts: {
          postinstall: 'chmod 4777 run.sh && mkdir -p open && chmod 1777 open',
        },
      }),
      'run.sh': '#!/bin/sh\necho hi\n',
    });
    expect(await apps.runner.install(request)).toMatchObject({ ok: true });
    expect(statSync(join(request.target, 'run.sh')).mode & 0o7777).toBe(0o755);
    expect(statSync(join(request.target, 'open')).mode & 0o7777).toBe(0o755);
    expect(statSync(join(request.target, 'package.json')).mode & 0o7777).toBe(0o644);
    apps.expectNothingLeft();
  }, 120_000);

  it('stops a package script at the time-out, and one past the size limit is refused', async () => {
    const { request } = install(
      {
        'package.json': JSON.stringify({
          name: 'slow',
          scripts: { postinstall: 'node -e "setTimeout(() => {}, 60000)"' },
        }),
      },
      { timeoutMs: 3000 },
    );
    expect(await apps.runner.install(request)).toEqual({
      ok: false,
      reason: 'The install ran past its time-out of 3 s.',
    });
    expect(existsSync(request.target)).toBe(false);
    const big = install({ 'big.txt': 'x'.repeat(2048) }, { maxBytes: 1024 });
    expect(await apps.runner.install(big.request)).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^The installed app takes \d+ bytes on disk, more than 1024\.$/,
      ),
    });
    expect(existsSync(big.request.target)).toBe(false);
    apps.expectNothingLeft();
  }, 60_000);

  it('counts what files take on disk, and keeps a sparse file sparse on the data disk', async () => {
    const size = 900 * 1024 * 1024;
    const { request, lines } = install({
      'package.json': JSON.stringify({
        name: 'sparse',
        scripts: {
          postinstall: `node -e "require('fs').writeFileSync('big', ''); require('fs').truncateSync('big', ${size})"`,
        },
      }),
    });
    const installed = await apps.runner.install(request);
    expect(installed, lines.map((line) => line.message).join('\n')).toMatchObject({ ok: true });
    const big = statSync(join(request.target, 'big'));
    expect(big.size).toBe(size);
    // 900 MiB it says; next to nothing it takes, there as in the sandbox.
    expect(big.blocks * 512).toBeLessThan(1024 * 1024);
    expect((installed as { bytes: number }).bytes).toBeLessThan(1024 * 1024);
    apps.expectNothingLeft();
  }, 120_000);

  it('installs on a machine with no npm settings at all, and with a user .npmrc only its owner reads', async () => {
    const bare = install(
      { 'package.json': JSON.stringify({ name: 'bare', type: 'module' }) },
      { npm: { env: {}, files: [] } },
    );
    const bareInstalled = await apps.runner.install(bare.request);
    expect(bareInstalled, bare.lines.map((line) => line.message).join('\n')).toMatchObject({
      ok: true,
    });
    // A user .npmrc as npm writes one (0600, the server's user's): its settings still hold.
    const userConfig = join(apps.root, 'npmrc');
    writeFileSync(userConfig, 'loglevel=silly\n', { mode: 0o600 });
    chmodSync(userConfig, 0o600);
    const configured = install(
      { 'package.json': JSON.stringify({ name: 'configured', type: 'module' }) },
      { npm: { env: {}, files: [], userConfig } },
    );
    expect(await apps.runner.install(configured.request)).toMatchObject({ ok: true });
    // npm at loglevel silly says what it runs: only a config it could read does that.
    expect(configured.lines.map((line) => line.message).join('\n')).toMatch(/silly/);
    apps.expectNothingLeft();
  }, 60_000);
});
