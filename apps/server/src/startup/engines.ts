import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  aesSecretBox,
  type BrowserEngine,
  createIdGenerator,
  type NodeDirectory,
  Organization,
} from '@x/service-kernel';
import { type NetworkEntry, parseNetworkEntry } from '@x/types';
import type { Logger } from 'pino';
import { AppRunner } from '../apps/app-runner.js';
import { npmSetupOf } from '../apps/npm-setup.js';
import { SandboxAppEngine } from '../apps/sandbox-app-engine.js';
import { ChromiumSignInDriver } from '../auth/chromium-sign-in.js';
import { ChromiumEngine } from '../browsers/chromium-engine.js';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';
import type { ClusterNode } from '../cluster/cluster-node.js';
import { ClusterPoolPeers } from '../cluster/pool-peers.js';
import type { ServerConfig } from '../config.js';
import { PinnedProviderClient } from '../credentials/pinned-provider-client.js';
import { DiskArchiveStore } from '../extensions/disk-archive-store.js';
import { SandboxFileSystem } from '../files/sandbox-file-system.js';
import { SandboxWatcher } from '../fs-watch/sandbox-watcher.js';
import { SandboxPlaywrightRunner } from '../playwright/sandbox-playwright-runner.js';
import { SandboxProcessRunner } from '../processes/sandbox-process-runner.js';
import { DiskProfileStore } from '../profiles/disk-profile-store.js';
import { HttpProxyChecker } from '../proxies/proxy-checker.js';
import { FfmpegRecorder } from '../replays/ffmpeg-recorder.js';
import type { SystemTools } from '../system/executables.js';
import type { Sandboxing } from './sandboxing.js';
import type { Stores } from './stores.js';
import type { Teardown } from './teardown.js';

/** Where the server is reached, known once it listens (deployed code is told it). */
export interface Addresses {
  url: string;
  publicUrl: string;
}

/** The engines the model runs on, and the parts of them the server drives itself. */
export interface Engines {
  readonly browserEngine: ChromiumEngine;
  readonly playwright: SandboxPlaywrightRunner;
  readonly organization: Organization<ChromiumInstance>;
  readonly poolPeers: ClusterPoolPeers | undefined;
  /** The processes' output-pipe folder, outside the data directory: removed at the stop. */
  readonly pipes: string;
}

/**
 * Stage four: the engines (Chromium in sandboxes, processes, Playwright, ffmpeg, inotify, files,
 * deployed code) and the organization of projects over them.
 */
export async function makeEngines(
  config: ServerConfig,
  logger: Logger,
  stores: Stores,
  tools: SystemTools,
  sandboxing: Sandboxing,
  addresses: Addresses,
  parts: { readonly browsers?: BrowserEngine<ChromiumInstance> | undefined },
  teardown: Teardown,
): Promise<Engines> {
  const { store, cluster, jwtSecret } = stores;
  const { users, cgroups, disks, egress, trust } = sandboxing;
  const archives = new DiskArchiveStore(config.dataDir, store.blobs);
  const profiles = new DiskProfileStore(config.dataDir, config.maxProfileBytes, store.blobs);
  const files = new SandboxFileSystem<ChromiumInstance>(
    tools.bwrap,
    join(config.dataDir, 'file-staging'),
  );
  const browserEngine = new ChromiumEngine({
    chromePath: config.chromePath,
    dataDir: config.dataDir,
    tools,
    logger,
    // On this server's disk first: fetched from the store when another server uploaded it.
    extensionFolder: async (key) => {
      await archives.ready(key);
      return archives.unpackedPath(key);
    },
    profiles: { store: profiles, files },
    spareBrowsers: config.spareBrowsers,
    sandboxing: {
      // A root server runs each browser as a user of its own, from this data directory's block.
      users,
      isEnabled: config.isBrowserSandboxed,
      cgroups,
      disks: disks && 'disks' in disks ? disks.disks : undefined,
      egress,
      trust,
    },
  });
  teardown.add('the spare browsers', () => browserEngine.spares?.close());
  const playwright = new SandboxPlaywrightRunner(tools.bwrap, logger);
  teardown.add('the Playwright workers', () => playwright.close());
  // Deployments' code runs in sandboxes as browsers do: a user, cgroup, disk and network of its
  // own; it reaches the API at the server's own address, which is known once it listens.
  const apps = new SandboxAppEngine({
    runner: tools.bwrap
      ? new AppRunner(
          tools.bwrap,
          config.dataDir,
          {
            users,
            isEnabled: true,
            cgroups,
            disks: disks && 'disks' in disks ? disks.disks : undefined,
            egress,
            trust,
          },
          logger,
        )
      : undefined,
    dataDir: config.dataDir,
    npm: npmSetupOf(process.env),
    installNetworks: () => (config.allowNetworks === 'open' ? [] : config.allowNetworks),
    codeNetworks: () => {
      const api = new URL(codeApiUrl(addresses.url));
      return [parseNetworkEntry(`${api.hostname}:${api.port}`) as NetworkEntry];
    },
    codeEnv: () => ({
      KERNEL_BASE_URL: codeApiUrl(addresses.url),
      XB_BASE_URL: codeApiUrl(addresses.url),
    }),
  });
  const pipes = pipesFolder(config.dataDir);
  const processes = new SandboxProcessRunner(tools.bwrap, pipes);
  // Given back after the projects' browsers (added before them): their processes have ended.
  teardown.add("the processes' output-pipe folder", () => removePipes(pipes, logger));
  // A pool's browsers run on every node with room: the node that holds the pool reaches them.
  const poolPeers = cluster ? new ClusterPoolPeers(cluster, logger) : undefined;
  const organization = new Organization<ChromiumInstance>({
    ...(cluster
      ? {
          nextId: createIdGenerator(undefined, cluster.tag),
          nodes: clusterDirectory(cluster, logger),
        }
      : {}),
    stores: store.records,
    audit: store.audit,
    engines: {
      browsers: parts.browsers ?? browserEngine,
      processes,
      playwright,
      curl: { fetch: (instance, call, signal) => instance.chromium.curl(call, signal) },
      recorder: new FfmpegRecorder(
        config.dataDir,
        tools.ffmpeg,
        store.blobs && {
          store: store.blobs,
          unstored: (error) =>
            logger.warn(
              { err: error },
              'a finished replay video is on this disk only: the store could not take it',
            ),
        },
      ),
      watcher: new SandboxWatcher({
        bubblewrap: tools.bwrap,
        inotifywait: tools.inotifywait,
        logger,
        budget: config.watchBudget,
      }),
      files,
      archives,
      profiles,
      proxyChecker: new HttpProxyChecker(config.proxyCheckUrl, config.allowNetworks),
      providers: new PinnedProviderClient(config.allowNetworks, config.onePasswordConnectUrl),
      signIn: new ChromiumSignInDriver(),
      secrets: aesSecretBox(stores.secretKey),
      apps,
    },
    settings: {
      maxBrowsers: config.maxBrowsers,
      isProcessExecutionEnabled: config.isProcessExecutionEnabled,
      watchBufferSize: 1024,
      limits: config.limits,
      jwtSecret,
      isFillRateLimited: true,
      allowNetworks: config.allowNetworks,
      maxInvocations: config.maxInvocations,
      ...(cluster
        ? {
            owns: (id: string) => (cluster as ClusterNode).owns(id),
            isShared: true,
            poolPeers,
          }
        : {}),
    },
    log: logger,
  });
  teardown.add("the projects' browsers", () => organization.close());
  await browserEngine.recover();
  if (browserEngine.spares) {
    // Spares count against the node's browsers: started only beside room for one more.
    browserEngine.spares.capacity = () => ({
      running: organization.nodeBrowsers(),
      max: config.maxBrowsers,
    });
  }
  return { browserEngine, playwright, organization, poolPeers, pipes };
}

/**
 * Where processes' output pipes are made: a private folder of this data directory's own, named by
 * a digest of its path and kept out of it, because a process reads the name of the pipe it writes
 * to (`readlink /proc/self/fd/1`) and the data directory's path is nothing for it to know.
 */
export function pipesFolder(dataDir: string, temp: string = tmpdir()): string {
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return join(temp, `xb-pipes-${digest}`);
}

/**
 * Removes the output-pipe folder once no process of this server runs (each pipe is unlinked as
 * soon as it is open; a terminal's start-up files go with its sandbox): nothing is left in the
 * system's temp folder. A failure is logged: the next start with this data directory reuses it.
 */
export function removePipes(folder: string, logger: Logger): void {
  try {
    rmSync(folder, { recursive: true, force: true });
  } catch (error) {
    logger.warn({ err: error, folder }, 'could not remove the output-pipe folder');
  }
}

/**
 * The API's address as deployed code reaches it from its sandbox: the loopback address where the
 * server listens on every address (or on loopback), else the address it listens on.
 */
function codeApiUrl(url: string): string {
  const api = new URL(url);
  if (['0.0.0.0', '[::]', 'localhost', '[::1]'].includes(api.hostname)) api.hostname = '127.0.0.1';
  return api.origin;
}

/**
 * The cluster's nodes as the organization lists and drains them: a drain marks this node
 * draining in the store, so the others place nothing here from their next read of it.
 */
function clusterDirectory(cluster: ClusterNode, logger: Logger): NodeDirectory {
  return {
    self: cluster.tag,
    members: () => cluster.members(),
    drain: () =>
      cluster.drain().catch((error: unknown) => {
        logger.warn({ err: error }, 'could not mark this node draining in the store');
      }),
  };
}
