import { createHash, randomBytes } from 'node:crypto';
import {
  createServer as createHttpServer,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { serve } from '@hono/node-server';
import {
  aesSecretBox,
  type BrowserEngine,
  createIdGenerator,
  describeOperatorNetworks,
  hasKnownToken,
  liveViewSockets,
  type NodeDirectory,
  Organization,
  type ServiceModel,
} from '@x/service-kernel';
import { type NetworkEntry, parseNetworkEntry } from '@x/types';
import pino, { type Logger } from 'pino';
import { AppRunner, npmSetupOf } from './apps/app-runner.js';
import { SandboxAppEngine } from './apps/sandbox-app-engine.js';
import { ChromiumSignInDriver } from './auth/chromium-sign-in.js';
import { ChromiumEngine, type ChromiumInstance, type Egress } from './browsers/chromium-engine.js';
import type { SpareBrowsers } from './browsers/spare-browsers.js';
import { ClusterNode, newNodeTag } from './cluster/cluster-node.js';
import { deploymentOfApp, recordByName } from './cluster/cluster-store.js';
import { Forwarder } from './cluster/forwarder.js';
import { ClusterPoolPeers, poolNodeCalls } from './cluster/pool-peers.js';
import { type ServerConfig, SettingError } from './config.js';
import { PinnedProviderClient } from './credentials/pinned-provider-client.js';
import { DiskArchiveStore } from './extensions/disk-archive-store.js';
import { SandboxFileSystem } from './files/sandbox-file-system.js';
import { SandboxWatcher } from './fs-watch/sandbox-watcher.js';
import { createApp, type FetchHandler, metricsResponse } from './http/app.js';
import { attachCdpProxy } from './http/cdp-proxy.js';
import { ConnectionGuard } from './http/connection-guard.js';
import { ServerMetrics } from './http/metrics.js';
import { createSpoolingMultipartReader } from './http/multipart-spool.js';
import { type ResolvedTokens, resolveTokens } from './http/tokens.js';
import { followTokensFile } from './http/tokens-file.js';
import {
  type EgressNetworks,
  type SessionNetwork,
  SessionNetworks,
} from './network/session-networks.js';
import { UserModeNetworks } from './network/user-mode-networks.js';
import { SandboxPlaywrightRunner } from './playwright/sandbox-playwright-runner.js';
import { SandboxProcessRunner } from './processes/sandbox-process-runner.js';
import { DiskProfileStore } from './profiles/disk-profile-store.js';
import { HttpProxyChecker } from './proxies/proxy-checker.js';
import { keyFingerprint, loadSecretKey } from './proxies/secret-key.js';
import { FfmpegRecorder } from './replays/ffmpeg-recorder.js';
import type { SandboxUser } from './sandbox/bubblewrap.js';
import { SessionCgroups } from './sandbox/cgroups.js';
import { type DiskDetection, InstanceDisks } from './sandbox/instance-disks.js';
import { newUserBlockBase, SandboxUsers } from './sandbox/sandbox-users.js';
import { readCaFile, SessionTrust } from './sandbox/session-trust.js';
import { DataDirLock } from './store/data-dir-lock.js';
import { openDatabase, storedSetting, storeSetting } from './store/database.js';
import { KeptIdempotencyStore } from './store/idempotency-store.js';
import {
  postgresServiceStore,
  type ServiceStore,
  sqliteServiceStore,
} from './store/service-store.js';
import { describeTools, findSystemTools, type SystemTools } from './system/executables.js';
import { raiseFileLimit } from './system/file-limit.js';
import { describeHolder, HostClaims } from './system/host-claims.js';
import { killDescendants } from './system/process-tree.js';
import { notReadyReasons } from './system/readiness.js';
import { BidiEndpoint } from './webdriver/bidi-endpoint.js';

/** How often browsers idle past their time-out are looked for. */
const SWEEP_MS = 1_000;

/** How often a node looks for warm browsers it runs for pools that no longer hold them. */
const POOL_SWEEP_MS = 30_000;

/** How often expired idempotency answers are pruned. */
const PRUNE_MS = 60_000;

/** How often the audit log drops what is past `XB_AUDIT_DAYS`. */
const AUDIT_PRUNE_MS = 3_600_000;

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
 * The URL handed out when no public URL is set: the bind address, with loopback for an address
 * that means every interface (0.0.0.0, ::), which no client can reach.
 */
export function publicUrlOfBind(host: string, port: number): string {
  const isEveryInterface = host === '0.0.0.0' || host === '::' || host === '';
  return httpOrigin(isEveryInterface ? '127.0.0.1' : host, port);
}

/**
 * Where processes' output pipes are made: a private folder of this data directory's own, named by
 * a digest of its path and kept out of it, because a process reads the name of the pipe it writes
 * to (`readlink /proc/self/fd/1`) and the data directory's path is nothing for it to know.
 */
function pipesFolder(dataDir: string): string {
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return join(tmpdir(), `xb-pipes-${digest}`);
}

/** `http://host:port`, an IPv6 host in brackets. */
function httpOrigin(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
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
 * Serves a Fetch handler on `host`:`port` through the Node adapter; resolves once it listens.
 * `forwarder`, on a node of a cluster, takes the calls that are another node's first.
 */
function listen(
  fetch: FetchHandler,
  port: number,
  hostname: string,
  forwarder?: Forwarder,
): Promise<Server> {
  const createServer: typeof createHttpServer = forwarder
    ? (((options: ServerOptions, listener: RequestListener) =>
        createHttpServer(options, (incoming, response) => {
          forwarder.request(incoming, response).then(
            (isTaken) => {
              if (!isTaken) listener(incoming, response);
            },
            () => listener(incoming, response),
          );
        })) as typeof createHttpServer)
    : createHttpServer;
  return new Promise<Server>((resolve, reject) => {
    const started = serve({ fetch, port, hostname, createServer }, () =>
      resolve(started as Server),
    );
    (started as Server).once('error', reject);
  });
}

/**
 * `GET /metrics` (and nothing else) without a token: for the loopback metrics port, which every
 * user of the host reaches, so pools are labelled by id there, never by their owners' names.
 */
function metricsOnly(metrics: ServerMetrics): FetchHandler {
  return async (request) =>
    request.method === 'GET' && new URL(request.url).pathname === '/metrics'
      ? metricsResponse(metrics, true)
      : Response.json(
          { code: 'not_found', message: 'Only GET /metrics is served here.' },
          { status: 404 },
        );
}

/** Starts the server with `config`: the store, the engines, the model, the HTTP API, the CDP proxy. */
export async function startServer(
  config: ServerConfig,
  logger: Logger = pino({ level: config.logLevel }),
  parts: ServerParts = {},
): Promise<RunningServer> {
  // Settings the host cannot honour are refused before anything is taken or started.
  checkSessionSettings(config);
  // Taken before anything reads or changes the data directory: a second server stops here.
  const lock = DataDirLock.take(config.dataDir);
  try {
    return await startLocked(config, logger, lock, parts);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function startLocked(
  config: ServerConfig,
  logger: Logger,
  lock: DataDirLock,
  parts: ServerParts,
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
  // Settings of this host (its sandbox users' ids, its session subnet, the jwt secret) stay in
  // the data directory; records and idempotency answers go where XB_DATABASE_URL says.
  const database = openDatabase(config.dataDir);
  let store: ServiceStore;
  try {
    store = config.databaseUrl
      ? await postgresServiceStore(config.databaseUrl, logger)
      : sqliteServiceStore(database);
  } catch (error) {
    database.close();
    throw error;
  }
  // Kept in the store, so session URLs stay valid across restarts; only the server reads it.
  let jwtSecret = storedSetting(database, 'jwt_secret', () => randomBytes(32).toString('hex'));
  // On PostgreSQL every server is a node of one service: its ids carry its tag (kept in its
  // data directory), the session URLs' secret is the cluster's.
  let secretKey: ReturnType<typeof loadSecretKey>;
  try {
    secretKey = loadSecretKey(config.secretKeyFile);
  } catch (error) {
    await store.close();
    database.close();
    throw error;
  }
  if (secretKey.isNew)
    logger.info(
      { file: config.secretKeyFile },
      'made the key proxy passwords are sealed with: keep it with the data directory, apart from it',
    );
  let cluster: ClusterNode | undefined;
  if (config.databaseUrl) {
    try {
      cluster = await ClusterNode.prepare(config.databaseUrl, {
        tag: storedSetting(database, 'node_tag', newNodeTag),
        isUrlGiven: config.nodeUrl !== undefined,
        capacity: config.maxBrowsers,
        logger,
        localJwtSecret: jwtSecret,
        keyFingerprint: keyFingerprint(secretKey.key),
        keyFile: config.secretKeyFile,
      });
    } catch (error) {
      await store.close();
      database.close();
      throw error;
    }
    jwtSecret = cluster.jwtSecret;
  }
  const tools = findSystemTools();
  const openFiles = raiseFileLimit(tools.prlimit);
  // Each browser holds a few dozen (pipes, sockets, its CDP connection); callers hold the rest.
  const fileLine = `open files: ${openFiles.soft} at most${openFiles.note ? ` (${openFiles.note})` : ''}`;
  if (openFiles.soft < 4096)
    logger.warn({ openFiles: openFiles.soft }, `${fileLine}: raise it (ulimit -n)`);
  else logger.info({ openFiles: openFiles.soft }, fileLine);
  const { found, missing } = describeTools(tools);
  if (missing.length > 0)
    logger.warn({ found, missing }, `missing on this host: ${missing.join(', ')}`);
  else logger.info({ found }, 'system tools found');
  const archives = new DiskArchiveStore(config.dataDir, store.blobs);
  const profiles = new DiskProfileStore(config.dataDir, config.maxProfileBytes, store.blobs);
  const files = new SandboxFileSystem<ChromiumInstance>(
    tools.bwrap,
    join(config.dataDir, 'file-staging'),
  );
  const cgroups = config.isBrowserSandboxed
    ? SessionCgroups.detect(config.dataDir, config.sessionLimits)
    : undefined;
  const disks =
    config.isBrowserSandboxed && config.sessionDiskBytes > 0
      ? await InstanceDisks.detect(config.dataDir, config.sessionDiskBytes)
      : undefined;
  logLimits(logger, { cgroups, disks }, config);
  const trust = config.sessionCaFile
    ? await SessionTrust.prepare(config.sessionCaFile, config.dataDir, tools.certutil)
    : undefined;
  if (trust)
    logger.info(
      { file: config.sessionCaFile, authorities: trust.count },
      'sessions trust the authorities of XB_SESSION_CA_FILE besides the public ones',
    );
  // What a root server shares with the other servers of this host (session subnets, network
  // names, blocks of users): each taken under the host's lock, never twice.
  const claims = SandboxUsers.canSwitchUser ? new HostClaims(config.dataDir) : undefined;
  const users = claims
    ? new SandboxUsers(await takeUserBlock(claims, database, logger))
    : undefined;
  const egress = config.isBrowserSandboxed
    ? await startEgress(config, tools, database, claims, logger)
    : undefined;
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
  const playwright = new SandboxPlaywrightRunner(tools.bwrap, logger);
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
      const api = new URL(codeApiUrl(url));
      return [parseNetworkEntry(`${api.hostname}:${api.port}`) as NetworkEntry];
    },
    codeEnv: () => ({ KERNEL_BASE_URL: codeApiUrl(url), XB_BASE_URL: codeApiUrl(url) }),
  });
  // A pool's browsers run on every node with room: the node that holds the pool reaches them.
  const poolPeers = cluster ? new ClusterPoolPeers(cluster, logger) : undefined;
  const org = new Organization<ChromiumInstance>({
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
      processes: new SandboxProcessRunner(tools.bwrap, pipesFolder(config.dataDir)),
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
      secrets: aesSecretBox(secretKey.key),
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
  /** The default project's model: what a call without a project acts on. */
  const model = org.defaultModel;
  await browserEngine.recover();
  if (browserEngine.spares) {
    // Spares count against the node's browsers: started only beside room for one more.
    browserEngine.spares.capacity = () => ({
      running: org.nodeBrowsers(),
      max: config.maxBrowsers,
    });
  }
  const idempotency = new KeptIdempotencyStore(store.answers, {
    onError: (error) => logger.error({ err: error }, 'an idempotency answer could not be kept'),
  });
  await idempotency.prune();
  let url = '';
  let publicUrl = '';
  let guard: ConnectionGuard | undefined;
  const metrics = new ServerMetrics(org, {
    egressBlocked:
      egress && 'networks' in egress ? () => egress.networks.blockedTotal() : undefined,
    connectionsRefused: () => guard?.refused,
  });
  browserEngine.onStarted = (phases) => metrics.started(phases);
  const app = createApp({
    metrics,
    publicUrl: () => publicUrl,
    readiness: async () => [
      ...(await notReadyReasons({ chromePath: config.chromePath, dataDir: config.dataDir })),
      ...[await store.notReady()].filter((reason) => reason !== undefined),
      ...(egress && 'unavailable' in egress
        ? [
            `the egress policy cannot be kept here (${egress.unavailable}): browsers are refused; XB_ALLOW_NETWORKS=* accepts an open network`,
          ]
        : []),
    ],
    org,
    tokens,
    idempotency,
    logger,
    // Uploads are streamed to disk as they arrive; what a crash left there goes now.
    readMultipart: createSpoolingMultipartReader(join(config.dataDir, 'uploads')),
  });
  const forwarder =
    cluster && store.postgres
      ? new Forwarder(
          cluster,
          {
            name: recordByName(store.postgres),
            app: deploymentOfApp(store.postgres),
            // A pool this node holds is served here without a lookup.
            holds: (kind, name) =>
              kind === 'pools' &&
              org.models().some((model) => {
                try {
                  model.pools.get(name);
                  return true;
                } catch {
                  return false;
                }
              }),
          },
          logger,
        )
      : undefined;
  if (forwarder && poolPeers) {
    poolPeers.forwarder = forwarder;
    forwarder.nodeCalls = poolNodeCalls(org);
  }
  const server = await listen(app, config.port, config.host, forwarder);
  guard = new ConnectionGuard(
    server,
    config.connectionLimits,
    (authorization) => {
      try {
        const request = { headers: new Headers({ authorization }) } as Request;
        return hasKnownToken(tokens, request) || org.callers.isRecentKey(authorization);
      } catch {
        return false; // not a header value Headers takes: no token
      }
    },
    cluster && ((address) => (cluster as ClusterNode).isNodeAddress(address)),
  );
  const liveSockets = liveViewSockets((id) => org.liveModelOf(id).liveViews);
  const bidi = new BidiEndpoint(
    tools.bwrap,
    {
      instanceOf: (id) => org.findReachableBrowser(id)?.entry.instance,
      touch: (id) => org.liveModelOf(id).browsers.touch(id),
      connect: (id) => org.liveModelOf(id).browsers.connect(id),
      telemetry: (id, event) => org.findBrowser(id)?.entry.telemetry.record(event),
    },
    jwtSecret,
    logger,
  );
  const detachProxy = attachCdpProxy(
    server,
    {
      // The service's own sign-in browsers are nobody's to drive: their URLs open nothing.
      isRunning: (id) => org.findReachableBrowser(id) !== undefined,
      openChannel: (id, client) =>
        org.findReachableBrowser(id)?.entry.instance.chromium.openChannel(client),
      touch: (id) => org.liveModelOf(id).browsers.touch(id),
      connect: (id) => org.liveModelOf(id).browsers.connect(id),
      relayed: (direction, bytes) => metrics.relayed(direction, bytes),
      telemetry: (id, event) => org.findBrowser(id)?.entry.telemetry.record(event),
    },
    jwtSecret,
    logger,
    [...(forwarder ? [forwarder.upgrade.bind(forwarder)] : []), liveSockets.upgrade, bidi.upgrade],
  );
  const { port } = server.address() as AddressInfo;
  // Metrics without a token, on loopback only: for a scraper on the same host.
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await listen(metricsOnly(metrics), config.metricsPort, '127.0.0.1');
  url = httpOrigin(config.host, port);
  publicUrl = config.publicUrl ?? publicUrlOfBind(config.host, port);
  lock.describe(url);
  // Records an earlier run left open are closed; its pools fill again, their URLs naming this one.
  const closed = await org.start(publicUrl);
  if (cluster) {
    await cluster.join(config.nodeUrl ?? url);
    cluster.start({
      running: () => org.nodeBrowsers(),
      lost: async (tags) => {
        const owned = (id: string) => tags.includes((cluster as ClusterNode).ownerOf(id));
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
      gone: (tags) =>
        org.forgetPoolBrowsers((id) => tags.includes((cluster as ClusterNode).ownerOf(id))),
    });
  }
  if (closed > 0) logger.warn({ count: closed }, 'browsers of an earlier run marked deleted');
  const sweeper = setInterval(() => org.sweep(), SWEEP_MS);
  sweeper.unref();
  const poolSweeper =
    poolPeers &&
    setInterval(() => {
      poolPeers.sweep(org).catch((error: unknown) => {
        logger.warn({ err: error }, 'could not look for pool browsers nobody holds');
      });
    }, POOL_SWEEP_MS);
  poolSweeper?.unref();
  const pruneAudit = () =>
    org.audit.prune(config.auditDays).catch((error: unknown) => {
      logger.warn({ err: error }, 'the audit log could not be pruned; trying again later');
    });
  await pruneAudit();
  let lastAuditPrune = Date.now();
  const pruner = setInterval(() => {
    idempotency.prune().catch((error: unknown) => {
      logger.warn({ err: error }, 'idempotency answers could not be pruned; trying again later');
    });
    if (Date.now() - lastAuditPrune >= AUDIT_PRUNE_MS) {
      lastAuditPrune = Date.now();
      void pruneAudit();
    }
  }, PRUNE_MS);
  pruner.unref();
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
    model,
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
        clearInterval(sweeper);
        clearInterval(poolSweeper);
        clearInterval(pruner);
        tokensFile?.stop();
        metricsServer?.close();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        detachProxy();
        bidi.close();
        // Recordings are finalized while their browsers still run; then every browser ends.
        await org.close();
        // The nodes holding pools whose browsers ran here have heard they ended.
        await poolPeers?.settled();
        // Its browsers ended, the node leaves: nobody has to find it lost.
        await cluster?.leave();
        forwarder?.close();
        await browserEngine.spares?.close();
        await playwright.close();
        // Viewers were told the server is going away (1001); their sockets end now.
        liveSockets.close();
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

/**
 * Refuses what the host cannot honour, rather than ignore it: resolvers for the sessions where
 * they have no relay of their own to ask them (a server that is not root resolves through
 * slirp4netns; with `XB_ALLOW_NETWORKS=*` sessions use the host's own resolver), and an
 * authorities file that is not one (read now, so the start says so in one line).
 */
function checkSessionSettings(config: ServerConfig): void {
  if (config.sessionNameservers && process.getuid?.() !== 0)
    throw new SettingError(
      "XB_SESSION_NAMESERVERS needs a server that runs as root: the sessions of a server that is not ask the host's resolvers, through slirp4netns",
    );
  if (config.sessionNameservers && config.allowNetworks === 'open')
    throw new SettingError(
      "XB_SESSION_NAMESERVERS has no effect with XB_ALLOW_NETWORKS=*: sessions then use the host's network and its resolvers",
    );
  if (config.sessionCaFile) {
    try {
      readCaFile(config.sessionCaFile);
    } catch (error) {
      throw new SettingError((error as Error).message);
    }
  }
}

/**
 * The block of users this data directory's sandboxes run as: the one kept in its store, unless
 * another server of this host holds it (a copied data directory, a block drawn twice), then
 * another, kept from then on.
 */
async function takeUserBlock(
  claims: HostClaims,
  database: DatabaseSync,
  logger: Logger,
): Promise<number> {
  return claims.withLock(async () => {
    let base = Number(
      storedSetting(database, 'sandbox_uid_base', () => String(newUserBlockBase())),
    );
    for (let attempt = 0; ; attempt++) {
      const holder = claims.heldByOther(`uids-${base}`);
      if (!holder) break;
      if (attempt >= 64) throw new Error('no free block of sandbox users on this host');
      logger.warn(
        { uidBase: base, holder },
        `the sandbox users from uid ${base} are held by ${describeHolder(holder)}: taking another block`,
      );
      base = newUserBlockBase();
      storeSetting(database, 'sandbox_uid_base', String(base));
    }
    claims.take(`uids-${base}`);
    // Servers killed without a stop leave their sessions' disks mounted under their data
    // directories; one whose data directory never starts again would leave them for good.
    for (const left of claims.left('uids-')) {
      const holder = claims.holderOf(left);
      if (holder && !claims.isDataDirLive(holder.dataDir)) {
        const unmounted = InstanceDisks.reap(holder.dataDir);
        if (unmounted > 0)
          logger.info(
            { dataDir: holder.dataDir, disks: unmounted },
            'unmounted the session disks a killed server left',
          );
      }
      claims.forget(left);
    }
    return base;
  });
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

/**
 * The egress policy, as this host allows it: a network namespace per session (root: a veth link
 * with iproute2 and nftables; otherwise a user namespace of the server's, out through
 * slirp4netns), the host's network when the operator said `*`, or none, with the reason (browsers
 * are then refused and /readyz says why). Said once in the start-up log.
 */
async function startEgress(
  config: ServerConfig,
  tools: SystemTools,
  database: DatabaseSync,
  claims: HostClaims | undefined,
  logger: Logger,
): Promise<Egress> {
  const allowed = describeOperatorNetworks(config.allowNetworks);
  if (config.allowNetworks === 'open') {
    logger.warn(
      { allowNetworks: '*' },
      `egress: ${allowed}; pages reach whatever the host reaches`,
    );
    return { open: true };
  }
  const isRoot = process.getuid?.() === 0;
  const { ip, nft, nsenter, unshare, setpriv, slirp4netns } = tools;
  const reason =
    !nft || !nsenter
      ? 'nftables and nsenter are needed (apt-get install nftables util-linux)'
      : isRoot && !ip
        ? 'iproute2 is needed (apt-get install iproute2)'
        : !isRoot && (!slirp4netns || !unshare || !setpriv)
          ? "a server that is not root needs slirp4netns for its sessions' networks (apt-get install slirp4netns)"
          : undefined;
  if (reason) {
    logger.error({ reason }, `egress policy unavailable: ${reason}; browsers are refused`);
    return { unavailable: reason };
  }
  try {
    let networks: EgressNetworks;
    if (isRoot && claims) {
      const kept = storedSetting(database, 'session_subnet', () => '');
      const rooted = await SessionNetworks.start({
        tools: { ip: ip as string, nft: nft as string, nsenter: nsenter as string },
        dataDir: config.dataDir,
        subnet: kept || undefined,
        nameservers: config.sessionNameservers,
        claims,
        logger,
      });
      if (rooted.subnet !== kept) storeSetting(database, 'session_subnet', rooted.subnet);
      networks = rooted;
    } else {
      networks = await UserModeNetworks.start({
        tools: {
          nft: nft as string,
          nsenter: nsenter as string,
          unshare: unshare as string,
          setpriv: setpriv as string,
          slirp4netns: slirp4netns as string,
        },
        dataDir: config.dataDir,
        operator: config.allowNetworks,
        logger,
      });
    }
    logger.info(
      { allowNetworks: allowed },
      `egress: ${allowed}; a page on a loopback or private address (localhost:3000, 10.0.0.5, this host) is refused and logged: XB_ALLOW_NETWORKS=127.0.0.1:3000 opens one`,
    );
    return { networks };
  } catch (error) {
    const failed = `the egress policy could not be set up: ${(error as Error).message}`;
    logger.error({ err: error }, failed);
    return { unavailable: failed };
  }
}

/** One start-up line: which per-session limits hold here, and which the host does not allow. */
function logLimits(
  logger: Logger,
  found: {
    cgroups: SessionCgroups | undefined;
    disks: DiskDetection | undefined;
  },
  config: ServerConfig,
) {
  const { processes, watches } = config.limits;
  const always = [`${processes} processes`, `${watches} watches`];
  if (!found.cgroups) {
    logger.warn({ enforced: always }, 'session limits: browsers run unsandboxed, no cgroup limits');
    return;
  }
  const { version, enforced, notAllowed } = found.cgroups.describe();
  const limits = { enforced: [...enforced], notAllowed: [...notAllowed], off: [] as string[] };
  if (!found.disks) limits.off.push('a disk per session (XB_SESSION_DISK_MB=0)');
  else if ('disks' in found.disks) limits.enforced.push(found.disks.disks.describe());
  else limits.notAllowed.push(`a disk per session (${found.disks.reason})`);
  limits.enforced.push(...always);
  const line = [
    `session limits (${version}): ${limits.enforced.join(', ')}`,
    ...(limits.notAllowed.length > 0
      ? [`not allowed by this host: ${limits.notAllowed.join(', ')}`]
      : []),
    ...(limits.off.length > 0 ? [`turned off: ${limits.off.join(', ')}`] : []),
  ].join('; ');
  const fields = { cgroups: version, ...limits };
  if (limits.notAllowed.length > 0) logger.warn(fields, line);
  else logger.info(fields, line);
}
