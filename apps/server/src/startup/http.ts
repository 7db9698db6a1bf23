import {
  createServer as createHttpServer,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { hasKnownToken, liveViewSockets } from '@x/service-kernel';
import type { Logger } from 'pino';
import type { ClusterNode } from '../cluster/cluster-node.js';
import { deploymentOfApp, recordByName } from '../cluster/cluster-store.js';
import { Forwarder } from '../cluster/forwarder.js';
import { poolNodeCalls } from '../cluster/pool-peers.js';
import type { ServerConfig } from '../config.js';
import { createApp, type FetchHandler, metricsResponse } from '../http/app.js';
import { attachCdpProxy } from '../http/cdp-proxy.js';
import { ConnectionGuard } from '../http/connection-guard.js';
import { ServerMetrics } from '../http/metrics.js';
import { createSpoolingMultipartReader } from '../http/multipart-spool.js';
import type { ResolvedTokens } from '../http/tokens.js';
import { KeptIdempotencyStore } from '../store/idempotency-store.js';
import type { SystemTools } from '../system/executables.js';
import { notReadyReasons } from '../system/readiness.js';
import { BidiEndpoint } from '../webdriver/bidi-endpoint.js';
import type { Addresses, Engines } from './engines.js';
import type { Sandboxing } from './sandboxing.js';
import type { Stores } from './stores.js';
import type { Teardown } from './teardown.js';

/** What serves the API: its HTTP server, the sockets beside it, and how to close them. */
export interface Serving {
  readonly server: Server;
  readonly metricsServer: Server | undefined;
  readonly forwarder: Forwarder | undefined;
  readonly idempotency: KeptIdempotencyStore;
  /** Stops taking calls and sockets: the HTTP server closes once what is open ends. */
  readonly stopped: () => Promise<void>;
  /** The live views' sockets (their viewers told the server is going away). */
  readonly closeLiveSockets: () => void;
}

/**
 * Stage five: the API served. The Fetch handler over the organization, in front of it a
 * cluster's forwarder, the connection guard, and beside it the DevTools proxy, WebDriver BiDi
 * and the live views' sockets; metrics on loopback when asked. Once it listens, `addresses`
 * says where.
 */
export async function serveApi(
  config: ServerConfig,
  logger: Logger,
  context: {
    readonly stores: Stores;
    readonly engines: Engines;
    readonly sandboxing: Sandboxing;
    readonly tools: SystemTools;
    readonly tokens: ResolvedTokens;
    readonly addresses: Addresses;
  },
  teardown: Teardown,
): Promise<Serving> {
  const { stores, engines, sandboxing, tools, tokens, addresses } = context;
  const { store, cluster, jwtSecret } = stores;
  const { organization: org, browserEngine, poolPeers } = engines;
  const { egress } = sandboxing;
  const idempotency = new KeptIdempotencyStore(store.answers, {
    onError: (error) => logger.error({ err: error }, 'an idempotency answer could not be kept'),
  });
  await idempotency.prune();
  let guard: ConnectionGuard | undefined;
  const metrics = new ServerMetrics(org, {
    egressBlocked:
      egress && 'networks' in egress ? () => egress.networks.blockedTotal() : undefined,
    connectionsRefused: () => guard?.refused,
  });
  browserEngine.onStarted = (phases) => metrics.started(phases);
  const app = createApp({
    metrics,
    publicUrl: () => addresses.publicUrl,
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
                  return false; // not this project's pool
                }
              }),
          },
          logger,
        )
      : undefined;
  if (forwarder) teardown.add('the connections to other nodes', () => forwarder.close());
  if (forwarder && poolPeers) {
    poolPeers.forwarder = forwarder;
    forwarder.nodeCalls = poolNodeCalls(org);
  }
  const server = await listen(app, config.port, config.host, forwarder);
  const stopped = new Promise<void>((resolve) => server.once('close', () => resolve()));
  const stop = () => {
    server.close();
    server.closeAllConnections();
    return stopped;
  };
  teardown.add("the API's server", stop);
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
  teardown.add('the WebDriver BiDi endpoint', () => bidi.close());
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
  teardown.add('the DevTools proxy', detachProxy);
  const { port } = server.address() as AddressInfo;
  // Metrics without a token, on loopback only: for a scraper on the same host.
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await listen(metricsOnly(metrics), config.metricsPort, '127.0.0.1');
  if (metricsServer) teardown.add('the metrics port', () => metricsServer.close());
  addresses.url = httpOrigin(config.host, port);
  addresses.publicUrl = config.publicUrl ?? publicUrlOfBind(config.host, port);
  return {
    server,
    metricsServer,
    forwarder,
    idempotency,
    stopped: () => {
      server.close();
      server.closeIdleConnections();
      detachProxy();
      bidi.close();
      return stopped;
    },
    closeLiveSockets: () => liveSockets.close(),
  };
}

/**
 * The URL handed out when no public URL is set: the bind address, with loopback for an address
 * that means every interface (0.0.0.0, ::), which no client can reach.
 */
export function publicUrlOfBind(host: string, port: number): string {
  const isEveryInterface = host === '0.0.0.0' || host === '::' || host === '';
  return httpOrigin(isEveryInterface ? '127.0.0.1' : host, port);
}

/** `http://host:port`, an IPv6 host in brackets. */
export function httpOrigin(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
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
