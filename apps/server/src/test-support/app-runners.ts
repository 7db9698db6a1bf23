import { execFileSync } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NetworkEntry, parseNetworkEntry } from '@x/types';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { AppRunner } from '../apps/app-runner.js';
import { SessionNetworks } from '../network/session-networks.js';
import { DEFAULT_SESSION_LIMITS, SessionCgroups } from '../sandbox/cgroups.js';
import { newUserBlockBase, SandboxUsers } from '../sandbox/sandbox-users.js';
import { packageFolder } from '../sandbox/worker-files.js';
import { findSystemTools } from '../system/executables.js';
import { HostClaims } from '../system/host-claims.js';

/**
 * An app runner for the tests of one file, as a root server makes it: users of its own, cgroups,
 * and with `network` a session network per run under the egress policy (without, runs have no
 * network at all). `root` is a fresh folder the file may use; all of it goes after the tests.
 */
export function useAppRunner(options: { readonly network: boolean }) {
  let networks: SessionNetworks | undefined;
  let cgroups: SessionCgroups | undefined;
  const handle = {
    runner: undefined as unknown as AppRunner,
    root: '',
    dataDir: '',
    /** Nothing of a run is left: no home, no cgroup. */
    expectNothingLeft(): void {
      expect(readdirSync(join(handle.dataDir, 'instances'))).toEqual([]);
      expect(cgroups?.sessions().size ?? 0).toBe(0);
    },
  };
  beforeAll(async () => {
    handle.root = mkdtempSync(join(tmpdir(), 'xb-apps-'));
    handle.dataDir = join(handle.root, 'data');
    mkdirSync(handle.dataDir, { mode: 0o700 });
    const tools = findSystemTools();
    if (!tools.bwrap) throw new Error('bubblewrap is needed');
    const logger = pino({ level: 'silent' });
    if (options.network) {
      if (!tools.ip || !tools.nft || !tools.nsenter)
        throw new Error('iproute2, nftables and nsenter are needed');
      networks = await SessionNetworks.start({
        tools: { ip: tools.ip, nft: tools.nft, nsenter: tools.nsenter },
        dataDir: handle.dataDir,
        subnet: undefined,
        claims: new HostClaims(handle.dataDir),
        logger,
      });
    }
    cgroups = SessionCgroups.detect(handle.dataDir, DEFAULT_SESSION_LIMITS);
    handle.runner = new AppRunner(
      tools.bwrap,
      handle.dataDir,
      {
        users: SandboxUsers.canSwitchUser ? new SandboxUsers(newUserBlockBase()) : undefined,
        isEnabled: true,
        cgroups,
        ...(networks ? { egress: { networks } } : {}),
      },
      logger,
    );
  }, 60_000);
  afterAll(async () => {
    await networks?.close();
    cgroups?.close();
    if (handle.root) rmSync(handle.root, { recursive: true, force: true });
  });
  return handle;
}

/** The host name of the registry npm uses on this machine (asked of the npm the server ships). */
export function registryHost(): string {
  const npm = join(packageFolder('npm', createRequire(import.meta.url)), 'bin', 'npm-cli.js');
  const registry = execFileSync(process.execPath, [npm, 'config', 'get', 'registry'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  return new URL(registry).hostname;
}

/**
 * The address of the registry npm uses on this machine (asked of the npm the server ships), as
 * the operator opens it to installs: a registry behind a private or reserved address is refused
 * by the egress policy otherwise.
 */
export async function registryNetworks(): Promise<NetworkEntry[]> {
  const { address } = await lookup(registryHost(), { family: 4 });
  return [parseNetworkEntry(`${address}/32`) as NetworkEntry];
}

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

/**
 * Puts `@x/client` (as published), what it needs and playwright-core into `folder`'s
 * node_modules: an app written with the client, its packages brought along (the client is not on
 * the registry this machine reaches).
 */
export function vendorClientPackages(folder: string): void {
  const require = createRequire(import.meta.url);
  const clientFolder = packageFolder('@x/client', require);
  const fromClient = createRequire(join(clientFolder, 'package.json'));
  const modules = join(folder, 'node_modules');
  copyPackage(clientFolder, join(modules, '@x', 'client'), true);
  copyPackage(packageFolder('@x/types', fromClient), join(modules, '@x', 'types'), true);
  for (const name of ['ky', 'valibot'])
    copyPackage(packageFolder(name, fromClient), join(modules, name), false);
  copyPackage(packageFolder('playwright-core', require), join(modules, 'playwright-core'), false);
}
