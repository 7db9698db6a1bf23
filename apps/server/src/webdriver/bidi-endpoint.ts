import type { ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Duplex, Readable, Writable } from 'node:stream';
import { type TelemetryEventInput, verifySessionJwt } from '@x/service-kernel';
import type { Logger } from 'pino';
import { WebSocket, WebSocketServer } from 'ws';
import { relayChannel } from '../browsers/channel-relay.js';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';
import { refuseUpgrade } from '../http/cdp-proxy.js';
import { endSandbox } from '../sandbox/bubblewrap.js';
import {
  packageFolder,
  spawnWorker,
  type WorkerFiles,
  workerScript,
} from '../sandbox/worker-files.js';
import { describeOverflow, readBoundedRecords } from '../system/bounded-records.js';

/** Path of a session's WebDriver BiDi endpoint: `/browsers/{id}/webdriver/session`. */
export const WEBDRIVER_PATH = /^\/browsers\/([A-Za-z0-9_-]{1,64})\/webdriver\/session$/;

/** Most BiDi connections one browser may have at once (each runs a mapper of its own). */
export const MAX_BIDI_CONNECTIONS_PER_BROWSER = 4;

/** Largest BiDi message a client may send (a long script, many files to set on an input). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Bytes a client may send before its mapper is ready (it is ready in well under a second). */
const MAX_QUEUED_BYTES = 1024 * 1024;

/** Longest message the mapper may send to a client (a screenshot's, or a page's script result). */
const MAX_MAPPER_MESSAGE_BYTES = 256 * 1024 * 1024;

/** How long a mapper may take to start and attach to its browser. */
const START_TIMEOUT_MS = 30_000;

/** Bytes waiting to reach a client past which its mapper is no longer read, and below which it is again. */
const CLIENT_HIGH_WATER_BYTES = 8 * 1024 * 1024;
const CLIENT_LOW_WATER_BYTES = 1024 * 1024;

/** Bytes of a mapper's stderr kept, for the reason it failed. */
const STDERR_TAIL_BYTES = 16 * 1024;

/** The running browsers, as the endpoint reaches them. */
export interface BidiTargets {
  /** The browser's instance; undefined when it does not run. */
  instanceOf(id: string): ChromiumInstance | undefined;
  /** Counts traffic as activity for the idle time-out. */
  touch(id: string): void;
  /** Counts a connected client as activity while it stays; gives the call that says it left. */
  connect(id: string): () => void;
  /** Hears a client arrive and leave (the session's `connection` telemetry). */
  telemetry?(id: string, event: TelemetryEventInput): void;
}

/** The files a mapper runs from, on the host; undefined when one is missing. */
function findWorkerFiles(): WorkerFiles | undefined {
  const script = workerScript(import.meta.url, 'bidi-worker', 'webdriver');
  if (!script) return undefined;
  try {
    const bidi = packageFolder('chromium-bidi', createRequire(import.meta.url));
    // Its own dependencies, found from where it is.
    const fromBidi = createRequire(join(bidi, 'package.json'));
    return {
      node: realpathSync(process.execPath),
      script,
      packages: {
        'chromium-bidi': bidi,
        mitt: packageFolder('mitt', fromBidi),
        zod: packageFolder('zod', fromBidi),
      },
    };
  } catch {
    return undefined;
  }
}

/**
 * Serves each session's `webdriver_ws_url`: a WebSocket on this server that speaks WebDriver
 * BiDi to the same browser as its `cdp_ws_url`. The jwt is checked as the CDP endpoint checks
 * it; then the connection gets a chromium-bidi mapper of its own, started in the session's
 * sandbox (its user, its cgroup, no network) on a DevTools channel of the server's pipe, so
 * nothing new listens anywhere and the client's messages are read only inside the sandbox. The
 * mapper ends with its connection, and the connection with its browser.
 */
export class BidiEndpoint {
  readonly #bubblewrap: string | undefined;
  readonly #files: WorkerFiles | undefined;
  readonly #targets: BidiTargets;
  readonly #jwtSecret: string;
  readonly #logger: Logger;
  readonly #sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  /** The mapper processes running, by the browser they serve. */
  readonly #mappers = new Map<string, Set<ChildProcess>>();

  constructor(
    bubblewrap: string | undefined,
    targets: BidiTargets,
    jwtSecret: string,
    logger: Logger,
  ) {
    this.#bubblewrap = bubblewrap;
    this.#files = findWorkerFiles();
    this.#targets = targets;
    this.#jwtSecret = jwtSecret;
    this.#logger = logger;
  }

  /** Takes the upgrades to a session's BiDi endpoint (and says so); leaves the others. */
  readonly upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const id = WEBDRIVER_PATH.exec(url.pathname)?.[1];
    if (!id) return false;
    const jwt = url.searchParams.get('jwt') ?? '';
    if (!verifySessionJwt(this.#jwtSecret, jwt, id, Math.floor(Date.now() / 1000))) {
      this.#logger.warn({ session: id }, 'WebDriver BiDi connection refused: bad jwt');
      refuseUpgrade(socket, 401, 'The jwt is missing, expired, or for another session.');
      return true;
    }
    const instance = this.#targets.instanceOf(id);
    if (!instance) {
      refuseUpgrade(socket, 404, `No running browser session "${id}".`);
      return true;
    }
    if (!this.#bubblewrap || !this.#files) {
      refuseUpgrade(
        socket,
        503,
        'WebDriver BiDi needs bubblewrap and chromium-bidi beside the server, which are missing here.',
      );
      return true;
    }
    const running = this.#mappers.get(id)?.size ?? 0;
    if (running >= MAX_BIDI_CONNECTIONS_PER_BROWSER) {
      refuseUpgrade(
        socket,
        429,
        `Browser "${id}" has ${MAX_BIDI_CONNECTIONS_PER_BROWSER} WebDriver BiDi connections, the most it may: close one.`,
      );
      return true;
    }
    this.#sockets.handleUpgrade(request, socket, head, (client) =>
      this.#serve(id, instance, client),
    );
    return true;
  };

  #serve(id: string, instance: ChromiumInstance, client: WebSocket): void {
    const mapper = spawnWorker(
      this.#bubblewrap as string,
      instance,
      this.#files as WorkerFiles,
      ['--max-old-space-size=256'],
      ['pipe', 'pipe', 'pipe', 'pipe'],
    );
    let mappers = this.#mappers.get(id);
    if (!mappers) {
      mappers = new Set();
      this.#mappers.set(id, mappers);
    }
    mappers.add(mapper);
    const arrivedAt = Date.now();
    let messages = 0;
    let closedBy = 'client';
    const leave = this.#targets.connect(id);
    client.once('close', leave);
    this.#targets.telemetry?.(id, {
      category: 'connection',
      type: 'webdriver_connect',
      source: { kind: 'kernel_api' },
    });
    let stderr = '';
    (mapper.stderr as Readable).on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_BYTES);
    });
    const stdin = mapper.stdin as Writable;
    stdin.on('error', () => undefined);
    const devtools = mapper.stdio[3] as Socket;
    devtools.on('error', () => undefined);
    const stop = () => void endSandbox(mapper);
    const channel = relayChannel(instance, devtools, () => {
      closedBy = 'browser_ended';
      stop();
    });
    channel.catch(stop);
    let isReady = false;
    const queued: string[] = [];
    let queuedBytes = 0;
    const started = setTimeout(() => {
      this.#logger.warn({ session: id }, 'a WebDriver BiDi mapper did not start in time');
      stop();
    }, START_TIMEOUT_MS);
    started.unref();

    // Mapper → client, one NUL-ended message at a time; its first is its own "ready".
    const stdout = mapper.stdout as Readable;
    let isPaused = false;
    const onSent = () => {
      if (isPaused && client.bufferedAmount < CLIENT_LOW_WATER_BYTES) {
        isPaused = false;
        stdout.resume();
      }
    };
    // The mapper relays what pages and the client shape: read within the client's own bound.
    readBoundedRecords(stdout, {
      delimiter: 0,
      maxRecordBytes: MAX_MAPPER_MESSAGE_BYTES,
      onRecord: (message) => {
        if (!isReady) {
          isReady = true;
          clearTimeout(started);
          for (const queuedMessage of queued.splice(0)) stdin.write(`${queuedMessage}\0`);
          return;
        }
        this.#targets.touch(id);
        if (client.readyState !== WebSocket.OPEN) return;
        client.send(message.toString(), onSent);
        if (client.bufferedAmount > CLIENT_HIGH_WATER_BYTES && !isPaused) {
          isPaused = true;
          stdout.pause();
        }
      },
      onOverflow: (overflow) => {
        this.#logger.warn(
          { session: id, why: describeOverflow(overflow, 'A WebDriver BiDi mapper') },
          'a WebDriver BiDi mapper was stopped',
        );
        stop();
      },
    });

    // Client → mapper; a client that sends faster than the mapper reads is not read meanwhile.
    client.on('message', (data, isBinary) => {
      this.#targets.touch(id);
      messages++;
      if (isBinary) {
        client.close(1003, 'WebDriver BiDi messages are text.');
        return;
      }
      const text = data.toString();
      if (!isReady) {
        queued.push(text);
        queuedBytes += Buffer.byteLength(text);
        if (queuedBytes > MAX_QUEUED_BYTES)
          client.close(1008, 'Too much sent before the session was ready.');
        return;
      }
      if (!stdin.write(`${text}\0`)) {
        client.pause();
        stdin.once('drain', () => client.resume());
      }
    });

    const end = () => {
      clearTimeout(started);
      stop();
      client.terminate();
    };
    client.on('close', end);
    client.on('error', end);
    mapper.once('exit', () => {
      mappers.delete(mapper);
      if (mappers.size === 0 && this.#mappers.get(id) === mappers) this.#mappers.delete(id);
      // A channel that never opened has nothing to close, and stopped the mapper already.
      void channel.then((opened) => opened.close()).catch(() => undefined);
      if (!isReady && closedBy === 'client') {
        const why = stderr.trim().split('\n').at(-1);
        this.#logger.warn(
          { session: id, reason: why },
          'a WebDriver BiDi mapper ended before it was ready',
        );
      }
      if (client.readyState === WebSocket.OPEN) {
        client.close(
          closedBy === 'browser_ended' ? 1001 : 1011,
          closedBy === 'browser_ended' ? 'The browser session ended.' : 'The BiDi mapper ended.',
        );
      }
      this.#targets.telemetry?.(id, {
        category: 'connection',
        type: 'webdriver_disconnect',
        source: { kind: 'kernel_api' },
        data: { duration_ms: Date.now() - arrivedAt, message_count: messages, reason: closedBy },
      });
    });
  }

  /** Ends every connection (the server is closing). */
  close(): void {
    for (const client of this.#sockets.clients) client.terminate();
    for (const mappers of this.#mappers.values())
      for (const mapper of mappers) void endSandbox(mapper);
    this.#sockets.close();
  }
}
