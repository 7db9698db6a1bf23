import { execFileSync } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NetworkEntry, parseNetworkEntry } from '@x/types';
import { zipSync } from 'fflate';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionNetworks } from '../network/session-networks.js';
import { DEFAULT_SESSION_LIMITS, SessionCgroups } from '../sandbox/cgroups.js';
import { newUserBlockBase, SandboxUsers } from '../sandbox/sandbox-users.js';
import { packageFolder } from '../sandbox/worker-files.js';
import { findSystemTools } from '../system/executables.js';
import { AppRunner, npmSetupOf } from './app-runner.js';
import { SandboxAppEngine } from './sandbox-app-engine.js';

const encoder = new TextEncoder();
const APP = `
import { Kernel, type KernelContext } from '@onkernel/sdk';
const kernel = new Kernel();
kernel.app('hello').action('say', async (_ctx: KernelContext, payload?: { name: string }) => \`hi \${payload?.name}\`);
`;

let root: string;
let dataDir: string;
let engine: SandboxAppEngine;
let networks: SessionNetworks;
let cgroups: SessionCgroups | undefined;

function zip(files: Record<string, string>): Blob {
  const entries = Object.fromEntries(
    Object.entries(files).map(([name, text]) => [name, encoder.encode(text)]),
  );
  return new Blob([zipSync(entries) as Uint8Array<ArrayBuffer>]);
}

beforeAll(async () => {
  const npm = join(packageFolder('npm', createRequire(import.meta.url)), 'bin', 'npm-cli.js');
  const registryUrl = execFileSync(process.execPath, [npm, 'config', 'get', 'registry'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  const { address } = await lookup(new URL(registryUrl).hostname, { family: 4 });
  root = mkdtempSync(join(tmpdir(), 'xb-app-engine-'));
  dataDir = join(root, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
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
  const runner = new AppRunner(
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
  engine = new SandboxAppEngine({
    runner,
    dataDir,
    npm: npmSetupOf(),
    allowNetworks: () => [parseNetworkEntry(`${address}/32`) as NetworkEntry],
  });
}, 60_000);

afterAll(async () => {
  await networks?.close();
  cgroups?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the server’s app engine', () => {
  it('deploys a zip: checked, installed, its apps found, kept until removed', async () => {
    const lines: string[] = [];
    const outcome = await engine.deploy({
      deploymentId: 'dep_one',
      archive: zip({
        'package.json': JSON.stringify({
          name: 'hello',
          type: 'module',
          dependencies: { '@onkernel/sdk': '0.84.0' },
        }),
        'app.ts': APP,
      }),
      entrypoint: 'app.ts',
      onLog: (line) => lines.push(line),
      signal: new AbortController().signal,
    });
    expect(outcome, lines.join('\n')).toEqual({
      ok: true,
      apps: [{ name: 'hello', actions: [{ name: 'say' }] }],
    });
    expect(existsSync(join(engine.folderOf('dep_one'), 'node_modules', '@onkernel', 'sdk'))).toBe(
      true,
    );
    await engine.remove('dep_one');
    expect(existsSync(engine.folderOf('dep_one'))).toBe(false);
  }, 180_000);

  it('fails a zip slip, a missing entrypoint and a failing install with a reason, leaving nothing', async () => {
    const deploy = (deploymentId: string, archive: Blob, entrypoint = 'app.ts') =>
      engine.deploy({
        deploymentId,
        archive,
        entrypoint,
        onLog: () => undefined,
        signal: new AbortController().signal,
      });
    const slip = await deploy('dep_slip', zip({ '../escape.js': 'evil()', 'app.ts': APP }));
    expect(slip).toEqual({
      ok: false,
      reason: expect.stringContaining('would be written outside the app folder'),
    });
    const missing = await deploy('dep_missing', zip({ 'app.ts': APP }), 'nope.ts');
    expect(missing).toEqual({
      ok: false,
      reason: expect.stringContaining('The entrypoint cannot be loaded'),
    });
    const failing = await deploy(
      'dep_failing',
      zip({
        'package.json': JSON.stringify({ dependencies: { 'xb-no-such-package-7f3a9': '1.0.0' } }),
        'app.ts': APP,
      }),
    );
    expect(failing).toEqual({ ok: false, reason: expect.stringMatching(/^npm install failed/) });
    expect(readdirSync(join(dataDir, 'deployments'))).toEqual([]);
    expect(readdirSync(join(dataDir, 'instances'))).toEqual([]);
  }, 180_000);
});
