import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import pino, { type Logger } from 'pino';
import { BrowserService, type Sandboxing } from './browsers/browser-service.js';
import type { ServerConfig } from './config.js';
import { ExtensionService } from './extensions/extension-service.js';
import { WatchService } from './fs-watch/watch-service.js';
import { createApp } from './http/app.js';
import { attachCdpProxy } from './http/cdp-proxy.js';
import { createSpoolingMultipartReader } from './http/multipart-spool.js';
import { type ResolvedTokens, resolveTokens } from './http/tokens.js';
import { InvocationService } from './invocations/invocation-service.js';
import { PoolService } from './pools/pool-service.js';
import { ProcessService } from './processes/process-service.js';
import { ReplayService } from './replays/replay-service.js';
import type { ServerRuntime } from './runtime.js';
import { newUserBlockBase, SandboxUsers } from './sandbox/sandbox-users.js';
import { openDatabase, storedSetting } from './store/database.js';
import { SqliteIdempotencyStore } from './store/idempotency-store.js';
import { findExecutable } from './system/executables.js';

/** A running server. */
export interface RunningServer {
  /** Where it listens, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  readonly tokens: ResolvedTokens;
  readonly browsers: BrowserService;
  /**
   * Stops gracefully: no new connections, calls in flight finish, every browser closes (no
   * Chromium survives), the store closes.
   */
  close(): Promise<void>;
}

/** Starts the server with `config`: the store, the browsers, the HTTP API and the CDP proxy. */
export async function startServer(
  config: ServerConfig,
  logger: Logger = pino({ level: config.logLevel }),
): Promise<RunningServer> {
  const database = openDatabase(config.dataDir);
  const tokens = resolveTokens(config);
  // Kept in the store, so session URLs stay valid across restarts; only the server reads it.
  const jwtSecret = storedSetting(database, 'jwt_secret', () => randomBytes(32).toString('hex'));
  const bubblewrap = findExecutable('bwrap');
  const sandboxing: Sandboxing = {
    bubblewrap,
    // A root server runs each browser as a user of its own, from this data directory's block.
    users: SandboxUsers.canSwitchUser
      ? new SandboxUsers(
          Number(storedSetting(database, 'sandbox_uid_base', () => String(newUserBlockBase()))),
        )
      : undefined,
    isEnabled: config.isBrowserSandboxed,
  };
  const extensions = new ExtensionService(database, config.dataDir);
  const browsers = new BrowserService(config, database, jwtSecret, logger, extensions, sandboxing);
  const invocations = new InvocationService(database, browsers);
  const idempotency = new SqliteIdempotencyStore(database);
  idempotency.prune();
  // The pools are made once the address is known: restored pools start browsers whose URLs name it.
  const processes = new ProcessService(bubblewrap, config.isProcessExecutionEnabled);
  const watches = new WatchService();
  const replays = new ReplayService(database, config.dataDir, findExecutable('ffmpeg'), logger);
  // Every process and every watch of a browser ends with it.
  browsers.onDeleted((id) => {
    processes.endAll(id);
    watches.endAll(id);
    void replays.stopAll(id);
  });
  const runtime: { -readonly [K in keyof ServerRuntime]: ServerRuntime[K] } = {
    browsers,
    invocations,
    processes,
    watches,
    replays,
    extensions,
    pools: undefined as unknown as PoolService,
  };
  const app = createApp({
    runtime,
    tokens,
    idempotency,
    logger,
    // Uploads are streamed to disk as they arrive; what a crash left there goes now.
    readMultipart: createSpoolingMultipartReader(join(config.dataDir, 'uploads')),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(started as Server),
    );
    (started as Server).once('error', reject);
  });
  const detachProxy = attachCdpProxy(server, browsers, jwtSecret, logger);
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  runtime.pools = new PoolService(database, browsers, logger, `http://${host}:${port}`);
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    tokens,
    browsers,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        detachProxy();
        runtime.pools.stop();
        // Recordings are finalized while their browsers still run.
        await replays.close();
        await browsers.deleteAll();
        // Event streams and proxied sockets hold connections open: end what is left.
        server.closeAllConnections();
        await stopped;
        database.close();
      })();
      return closing;
    },
  };
}
