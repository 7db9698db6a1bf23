import type { AddressInfo } from 'node:net';
import type { BrowserEngine, Organization, ServiceModel } from '@x/service-kernel';
import pino, { type Logger } from 'pino';
import type { ChromiumInstance } from './browsers/chromium-instance.js';
import type { SpareBrowsers } from './browsers/spare-browsers.js';
import type { ClusterNode } from './cluster/cluster-node.js';
import type { Forwarder } from './cluster/forwarder.js';
import type { ServerConfig } from './config.js';
import { type ResolvedTokens, resolveTokens } from './http/tokens.js';
import { followTokensFile } from './http/tokens-file.js';
import type { SessionNetwork } from './network/egress-networks.js';
import type { SandboxUser } from './sandbox/bubblewrap.js';
import type { SessionCgroups } from './sandbox/cgroups.js';
import { InstanceDisks } from './sandbox/instance-disks.js';
import { type Addresses, makeEngines, removePipes } from './startup/engines.js';
import { checkSessionSettings, readHost } from './startup/host.js';
import { startHousekeeping } from './startup/housekeeping.js';
import { httpOrigin, serveApi } from './startup/http.js';
import { prepareSandboxing } from './startup/sandboxing.js';
import { openStores } from './startup/stores.js';
import { Teardown } from './startup/teardown.js';
import { DataDirLock } from './store/data-dir-lock.js';
import { killDescendants } from './system/process-tree.js';

export { publicUrlOfBind } from './startup/http.js';

/**
 * Parts a program that starts the server in-process may put in place of the real ones: a
 * benchmark of what the service costs around its browsers starts browsers that are not there.
 */
export interface ServerParts {
  readonly browsers?: BrowserEngine<ChromiumInstance> | undefined;
}

/** A running server. */
export interface RunningServer {
  /** Where it listens, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The origin every URL handed out is built from: XB_PUBLIC_URL, else the bind address. */
  readonly publicUrl: string;
  /** Where `GET /metrics` is served without a token, when XB_METRICS_PORT is set. */
  readonly metricsUrl: string | undefined;
  readonly tokens: ResolvedTokens;
  /** The default project's service model on the real engines. */
  readonly model: ServiceModel<ChromiumInstance>;
  /** The organization: every project's model, API keys, limits, the audit log. */
  readonly org: Organization<ChromiumInstance>;
  /** Per-session cgroups, where the host allows them. */
  readonly cgroups: SessionCgroups | undefined;
  /** This server as a node of a cluster (on PostgreSQL). */
  readonly cluster: ClusterNode | undefined;
  /** What passes calls between this node and the others of its cluster. */
  readonly forwarder: Forwarder | undefined;
  /** Browsers started ahead for the next plain create, when XB_SPARE_BROWSERS is not 0. */
  readonly spares: SpareBrowsers<ChromiumInstance> | undefined;
  /** A running browser's instance: its home on the host, its user and its network (for tests). */
  instance(sessionId: string): {
    home: string;
    user: SandboxUser | undefined;
    network: SessionNetwork | undefined;
  };
  /**
   * Stops gracefully: no new connections, calls in flight finish, every browser closes (no
   * Chromium survives), the store closes.
   */
  close(): Promise<void>;
  /**
   * Ends at once, synchronously, everything the server started (a stop past its deadline, or a
   * second signal): every process below it, every process of its sandbox users and cgroups; the
   * sessions' disks are unmounted. The store is left as a crash leaves it: a next start recovers.
   */
  kill(): void;
}

/**
 * Starts the server with `config`, in named stages (`startup/`): the stores, the host, the
 * sandboxes' parts, the engines and the organization, the API served, the recovery of what an
 * earlier run left (and a cluster joined), the housekeeping. A stage that fails gives back what
 * the stages before it took, newest first.
 */
export async function startServer(
  config: ServerConfig,
  logger: Logger = pino({ level: config.logLevel }),
  parts: ServerParts = {},
): Promise<RunningServer> {
  // Settings the host cannot honour are refused before anything is taken or started.
  checkSessionSettings(config);
  // Taken before anything reads or changes the data directory: a second server stops here.
  const lock = DataDirLock.take(config.dataDir);
  const teardown = new Teardown();
  teardown.add("the data directory's lock", () => lock.release());
  try {
    return await startStages(config, logger, parts, lock, teardown);
  } catch (error) {
    await teardown.unwind(logger);
    throw error;
  }
}

async function startStages(
  config: ServerConfig,
  logger: Logger,
  parts: ServerParts,
  lock: DataDirLock,
  teardown: Teardown,
): Promise<RunningServer> {
  const tokens = resolveTokens(config);
  const tokensFile = config.tokensFile
    ? followTokensFile(
        config.tokensFile,
        tokens,
        { tokens: config.tokens, readOnlyTokens: config.readOnlyTokens },
        logger,
      )
    : undefined;
  if (tokensFile) teardown.add("the tokens file's watch", () => tokensFile.stop());
  const stores = await openStores(config, logger, teardown);
  const { store, database, cluster } = stores;
  const tools = readHost(logger);
  const sandboxing = await prepareSandboxing(config, logger, tools, database, teardown);
  const { users, cgroups, egress, claims } = sandboxing;
  const addresses: Addresses = { url: '', publicUrl: '' };
  const engines = await makeEngines(
    config,
    logger,
    stores,
    tools,
    sandboxing,
    addresses,
    parts,
    teardown,
  );
  const { organization: org, browserEngine, playwright, poolPeers, pipes } = engines;
  const serving = await serveApi(
    config,
    logger,
    { stores, engines, sandboxing, tools, tokens, addresses },
    teardown,
  );
  const { server, metricsServer, forwarder } = serving;
  const { url, publicUrl } = addresses;
  lock.describe(url);
  // Stage six: records an earlier run left open are closed; its pools fill again, their URLs
  // naming this one. A node of a cluster joins it.
  const closed = await org.start(publicUrl);
  if (cluster) {
    await cluster.join(config.nodeUrl ?? url);
    cluster.start({
      running: () => org.nodeBrowsers(),
      lost: async (tags) => {
        const owned = (id: string) => tags.includes(cluster.ownerOf(id));
        const ended = await org.endLostBrowsers(owned);
        org.forgetPoolBrowsers(owned);
        const failed = await org.endLostInvocations(owned);
        logger.warn(
          { nodes: tags, sessions: ended, invocations: failed },
          'sessions of lost nodes marked ended, their invocations failed',
        );
      },
      fenced: async () => {
        await org.endAllBrowsers('node_lost');
      },
      poolsMoved: () => org.restorePools(publicUrl),
      gone: (tags) => org.forgetPoolBrowsers((id) => tags.includes(cluster.ownerOf(id))),
    });
  }
  if (closed > 0) logger.warn({ count: closed }, 'browsers of an earlier run marked deleted');
  const stopHousekeeping = await startHousekeeping(
    config,
    logger,
    org,
    serving.idempotency,
    poolPeers,
  );
  let closing: Promise<void> | undefined;
  /**
   * A stop drains first, when told to (XB_DRAIN_SECONDS): no browser starts here any more (a
   * cluster places them elsewhere), and the sessions in use have until the deadline to end.
   */
  const drain = async () => {
    if (config.drainSeconds === 0) return;
    logger.info(
      { sessions: org.busyBrowsers(), drainSeconds: config.drainSeconds },
      'draining: no new browsers here; waiting for the sessions in use to end',
    );
    logger.info({ sessions: await org.drain(config.drainSeconds) }, 'drained');
  };
  return {
    url,
    publicUrl,
    metricsUrl: metricsServer
      ? httpOrigin('127.0.0.1', (metricsServer.address() as AddressInfo).port)
      : undefined,
    tokens,
    model: org.defaultModel,
    org,
    cgroups,
    cluster,
    forwarder,
    spares: browserEngine.spares,
    instance(sessionId) {
      const found = org.findBrowser(sessionId);
      if (!found) throw new Error(`No live browser ${sessionId}.`);
      const { instance } = found.entry;
      return { home: instance.home, user: instance.user, network: instance.network };
    },
    kill() {
      killDescendants(process.pid);
      users?.signalAll();
      cgroups?.killAll();
      InstanceDisks.reap(config.dataDir);
      if (egress && 'networks' in egress) egress.networks.killSync();
      claims?.releaseAll();
    },
    close() {
      closing ??= (async () => {
        await drain();
        stopHousekeeping();
        tokensFile?.stop();
        metricsServer?.close();
        const stopped = serving.stopped();
        // Recordings are finalized while their browsers still run; then every browser ends.
        await org.close();
        // The nodes holding pools whose browsers ran here have heard they ended.
        await poolPeers?.settled();
        // Its browsers ended, the node leaves: nobody has to find it lost.
        await cluster?.leave();
        forwarder?.close();
        await browserEngine.spares?.close();
        await playwright.close();
        // Every process has ended with its browser: its pipes' folder goes.
        removePipes(pipes, logger);
        // Viewers were told the server is going away (1001); their sockets end now.
        serving.closeLiveSockets();
        // Event streams and proxied sockets hold connections open: end what is left.
        server.closeAllConnections();
        await stopped;
        try {
          if (egress && 'networks' in egress) await egress.networks.close();
        } finally {
          claims?.releaseAll();
          cgroups?.close();
          await store.close();
          database.close();
          lock.release();
        }
      })();
      return closing;
    },
  };
}
