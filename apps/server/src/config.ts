import { existsSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { availableParallelism, totalmem } from 'node:os';
import { resolve } from 'node:path';
import {
  type BrowserLimits,
  DEFAULT_BROWSER_LIMITS,
  type OperatorNetworks,
  parseOperatorNetworks,
} from '@x/service-kernel';
import { DEFAULT_WATCH_BUDGET } from './fs-watch/sandbox-watcher.js';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from './http/connection-guard.js';
import type { NetworkEndpoint } from './network/dns-relay.js';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './sandbox/cgroups.js';
import { DEFAULT_SESSION_DISK_BYTES } from './sandbox/instance-disks.js';
import { type LogFormat, logFormatOf } from './system/log-format.js';

/** How the server runs: from the environment, with defaults that need no setup. */
export interface ServerConfig {
  /** Where the store, the generated token and every browser's instance directory live. */
  readonly dataDir: string;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Tokens with every right, from `XB_TOKENS` (comma-separated); generated when none. */
  readonly tokens: readonly string[];
  /** Read-only tokens, from `XB_READ_ONLY_TOKENS`. */
  readonly readOnlyTokens: readonly string[];
  /** The Chromium to run: `CHROME_PATH`, or Debian's. */
  readonly chromePath: string;
  /** Most browsers at once; one more is 429 with Retry-After. */
  readonly maxBrowsers: number;
  /** Most invocations whose code runs at once (`XB_MAX_INVOCATIONS`); one more is 429. */
  readonly maxInvocations: number;
  /** Browsers kept started ahead for the next plain create (`XB_SPARE_BROWSERS`; 0 for none). */
  readonly spareBrowsers: number;
  /** Days the audit log keeps a write (`XB_AUDIT_DAYS`, 30); older entries are pruned hourly. */
  readonly auditDays: number;
  readonly logLevel: string;
  /** JSON lines, or lines for a person (`XB_LOG_FORMAT`; pretty on a terminal by default). */
  readonly logFormat: LogFormat;
  /** Whether processes may run on instances (`XB_PROCESSES=off` turns them off: 403). */
  readonly isProcessExecutionEnabled: boolean;
  /**
   * Whether browsers run in their bubblewrap sandbox. Always, from the environment: only the
   * benchmarks turn it off, to measure what the sandbox costs.
   */
  readonly isBrowserSandboxed: boolean;
  /** What one browser may hold at once: processes, watches, output kept. */
  readonly limits: BrowserLimits;
  /** What each session may use of the host, through cgroups where the host allows them. */
  readonly sessionLimits: SessionLimits;
  /** Each session's disk (its home), reserved in full where the host lets the server mount one; 0: none. */
  readonly sessionDiskBytes: number;
  /** Longest a graceful stop may take; past it everything the server started is killed. */
  readonly shutdownSeconds: number;
  /**
   * How long a stop first drains (`XB_DRAIN_SECONDS`): no new browser starts here (a cluster
   * places them on other nodes), and the sessions in use may end by themselves; then the stop
   * goes on as usual. 0: no draining.
   */
  readonly drainSeconds: number;
  /**
   * Inotify entries (one per watched directory) the watches of one browser may hold together
   * (`XB_WATCH_ENTRIES_PER_BROWSER`), and every browser's together (`XB_WATCH_ENTRIES`).
   */
  readonly watchBudget: { readonly perSession: number; readonly total: number };
  /**
   * Connections one address may hold (`XB_MAX_CONNECTIONS_PER_CLIENT`), and connections that
   * have shown no credential yet (`XB_MAX_UNAUTHENTICATED_CONNECTIONS`, the oldest closed first).
   */
  readonly connectionLimits: ConnectionLimits;
  /** Largest saved profile, in bytes (`XB_MAX_PROFILE_MB`); a larger save keeps the last version. */
  readonly maxProfileBytes: number;
  /**
   * The file of the key proxy passwords are sealed with (`XB_SECRET_KEY_FILE`): outside the data
   * directory, `<data dir>.key` by default; made on first start.
   */
  readonly secretKeyFile: string;
  /** The site a proxy check asks through the proxy; it answers with the address it sees. */
  readonly proxyCheckUrl: string;
  /**
   * The 1Password Connect server of a credential provider created without an address
   * (`XB_ONEPASSWORD_CONNECT_URL`). Undefined: a provider must name its own.
   */
  readonly onePasswordConnectUrl?: string | undefined;
  /**
   * The origin clients reach the server at (`XB_PUBLIC_URL`, e.g. `https://browsers.example.com`):
   * every URL handed out is built from it. Undefined: from the bind address.
   */
  readonly publicUrl: string | undefined;
  /** The file of API tokens (`XB_TOKENS_FILE`), re-read on change and on SIGHUP. */
  readonly tokensFile: string | undefined;
  /**
   * Where records live: PostgreSQL at this URL (`XB_DATABASE_URL`, `postgres://…`), or, when
   * undefined, the SQLite file of the data directory. Secret: never logged or shown.
   */
  readonly databaseUrl: string | undefined;
  /**
   * The address the other nodes of a cluster reach this one at (`XB_NODE_URL`,
   * `http://10.0.0.12:8080`): with PostgreSQL every server is a node of one service, and the
   * nodes pass calls for each other's browsers there. Undefined: the bind address, which only
   * serves a cluster on one machine; a second node refuses to join without it.
   */
  readonly nodeUrl: string | undefined;
  /** A loopback port that serves `GET /metrics` without a token (`XB_METRICS_PORT`; 0: a free one). */
  readonly metricsPort: number | undefined;
  /**
   * What every session may reach beyond the public internet (`XB_ALLOW_NETWORKS`): entries, or
   * `'open'` (`*`: the operator accepts sessions on the host's whole network).
   */
  readonly allowNetworks: OperatorNetworks;
  /**
   * The resolvers the sessions' DNS relays ask (`XB_SESSION_NAMESERVERS`: IPv4 addresses, each
   * with a port if not 53); undefined: the host's own, from /etc/resolv.conf.
   */
  readonly sessionNameservers?: readonly NetworkEndpoint[] | undefined;
  /**
   * A PEM file of certificate authorities the sessions trust besides the public ones
   * (`XB_SESSION_CA_FILE`): browsers, deployments' code and their npm installs.
   */
  readonly sessionCaFile?: string | undefined;
}

/** The origin of `XB_NODE_URL`: an http URL with no path, query or credentials. */
function nodeUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const problem = `XB_NODE_URL must be the http origin the other nodes reach this one at, such as http://10.0.0.12:8080, got "${value}"`;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(problem);
  }
  const isOrigin =
    parsed.protocol === 'http:' &&
    parsed.pathname === '/' &&
    parsed.search === '' &&
    parsed.hash === '' &&
    parsed.username === '' &&
    parsed.password === '';
  if (!isOrigin) throw new Error(problem);
  return parsed.origin;
}

/** The origin of `XB_PUBLIC_URL`: an http(s) URL with no path, query or fragment. */
function publicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(
      `XB_PUBLIC_URL must be an http(s) URL such as https://browsers.example.com, got "${value}"`,
    );
  }
  if (
    (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
    parsed.pathname !== '/' ||
    parsed.search !== '' ||
    parsed.hash !== '' ||
    parsed.username !== '' ||
    parsed.password !== ''
  ) {
    throw new Error(
      `XB_PUBLIC_URL must be an http(s) origin without path, query or credentials (https://browsers.example.com), got "${value}"`,
    );
  }
  return parsed.origin;
}

function onOff(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`${name} must be on or off, got "${value}"`);
}

/** Default largest saved profile, in MiB. */
export const DEFAULT_MAX_PROFILE_MB = 512;

/** Default site a proxy check asks through the proxy (it answers with the caller's address). */
export const DEFAULT_PROXY_CHECK_URL = 'https://api.ipify.org/';

/**
 * `XB_DATABASE_URL`: a postgres:// or postgresql:// URL with a database name. The value itself
 * is never repeated in an error (it holds a password).
 */
function databaseUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (
    !parsed ||
    (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') ||
    parsed.pathname.length <= 1
  )
    throw new Error(
      'XB_DATABASE_URL must be a PostgreSQL URL with a database, such as postgres://xb:secret@db.example:5432/xb (the value given is not repeated here: it may hold a password)',
    );
  return value;
}

/**
 * A setting the host cannot honour, found as the server starts (after the environment was read):
 * said in one line, exit 2, as a bad flag is.
 */
export class SettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingError';
  }
}

/** `XB_SESSION_NAMESERVERS`: `10.0.0.53,10.0.0.54:5353`; undefined when not set. */
function nameservers(value: string | undefined): NetworkEndpoint[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const entries = list(value);
  if (entries.length === 0)
    throw new Error(`XB_SESSION_NAMESERVERS must list IPv4 resolvers, got "${value}"`);
  return entries.map((entry) => {
    const match = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(entry);
    const port = Number(match?.[2] ?? 53);
    if (!match || !isIPv4(match[1] as string) || port < 1 || port > 65_535)
      throw new Error(
        `XB_SESSION_NAMESERVERS must list IPv4 resolvers, each with a port if not 53 (10.0.0.53,10.0.0.54:5353), got "${entry}"`,
      );
    return { address: match[1] as string, port };
  });
}

function checkUrl(value: string | undefined, name = 'XB_PROXY_CHECK_URL'): string {
  const url = value || DEFAULT_PROXY_CHECK_URL;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`${name} must be an http(s) URL, got "${url}"`);
  return url;
}

/**
 * Browsers a core serves, for the default capacity: an agent's browser is mostly waiting (for its
 * model, for pages), but a page load or a screenshot takes most of a core for a moment, and past
 * four per core those moments queue behind each other.
 */
const BROWSERS_PER_CORE = 4;

/** Memory a headless browser takes, for the default capacity. */
const BROWSER_MEMORY_BYTES = 400 * 1024 * 1024;

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

function whole(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new Error(`${name} must be a whole number, got "${value}"`);
  return number;
}

function cpus(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_SESSION_LIMITS.cpus;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0.01)
    throw new Error(`XB_SESSION_CPUS must be a number of cores ≥ 0.01, got "${value}"`);
  return number;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  const number = whole(name, value, fallback);
  if (number === 0) throw new Error(`${name} must be at least 1, got "${value}"`);
  return number;
}

/**
 * Debian's Chromium binary itself, when it is installed: its `/usr/bin/chromium` is a launcher
 * script that runs a dozen commands before it starts the binary (25 ms of CPU and 20 ms at every
 * start here), and sets nothing the server needs. Else `/usr/bin/chromium`.
 */
function defaultChromePath(): string {
  return existsSync(DEBIAN_CHROMIUM_BINARY) ? DEBIAN_CHROMIUM_BINARY : '/usr/bin/chromium';
}

const DEBIAN_CHROMIUM_BINARY = '/usr/lib/chromium/chromium';

/**
 * Reads the configuration from the environment. The default capacity is what both the memory
 * and the processors hold: a quarter of the memory kept for other work, one browser per 400 MB
 * of the rest, and four browsers per core; at least one.
 */
export function readConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ServerConfig {
  const defaultCapacity = Math.max(
    1,
    Math.min(
      Math.floor((totalmem() * 0.75) / BROWSER_MEMORY_BYTES),
      availableParallelism() * BROWSERS_PER_CORE,
    ),
  );
  const dataDir = resolve(env.XB_DATA_DIR || '.xb-data');
  return {
    dataDir,
    maxProfileBytes:
      positive('XB_MAX_PROFILE_MB', env.XB_MAX_PROFILE_MB, DEFAULT_MAX_PROFILE_MB) * 1024 * 1024,
    secretKeyFile: resolve(env.XB_SECRET_KEY_FILE || `${dataDir}.key`),
    proxyCheckUrl: checkUrl(env.XB_PROXY_CHECK_URL),
    onePasswordConnectUrl: env.XB_ONEPASSWORD_CONNECT_URL
      ? checkUrl(env.XB_ONEPASSWORD_CONNECT_URL, 'XB_ONEPASSWORD_CONNECT_URL')
      : undefined,
    host: env.XB_HOST || '127.0.0.1',
    port: whole('XB_PORT', env.XB_PORT ?? env.PORT, 8080),
    tokens: list(env.XB_TOKENS),
    readOnlyTokens: list(env.XB_READ_ONLY_TOKENS),
    chromePath: env.CHROME_PATH || defaultChromePath(),
    maxBrowsers: whole('XB_MAX_BROWSERS', env.XB_MAX_BROWSERS, defaultCapacity),
    spareBrowsers: whole('XB_SPARE_BROWSERS', env.XB_SPARE_BROWSERS, 1),
    // Each runs Node in a sandbox of its own (some tens of MB, a share of a core): as many as
    // browsers by default, which they mostly drive.
    maxInvocations: whole('XB_MAX_INVOCATIONS', env.XB_MAX_INVOCATIONS, defaultCapacity),
    auditDays: positive('XB_AUDIT_DAYS', env.XB_AUDIT_DAYS, 30),
    logLevel: env.XB_LOG_LEVEL || 'info',
    logFormat: logFormatOf(env.XB_LOG_FORMAT || undefined, process.stdout.isTTY === true),
    isProcessExecutionEnabled: onOff('XB_PROCESSES', env.XB_PROCESSES),
    publicUrl: publicUrl(env.XB_PUBLIC_URL),
    tokensFile: env.XB_TOKENS_FILE ? resolve(env.XB_TOKENS_FILE) : undefined,
    databaseUrl: databaseUrl(env.XB_DATABASE_URL),
    nodeUrl: nodeUrl(env.XB_NODE_URL),
    metricsPort:
      env.XB_METRICS_PORT === undefined || env.XB_METRICS_PORT === ''
        ? undefined
        : whole('XB_METRICS_PORT', env.XB_METRICS_PORT, 0),
    isBrowserSandboxed: true,
    allowNetworks: parseOperatorNetworks(env.XB_ALLOW_NETWORKS ?? ''),
    sessionNameservers: nameservers(env.XB_SESSION_NAMESERVERS),
    sessionCaFile: env.XB_SESSION_CA_FILE ? resolve(env.XB_SESSION_CA_FILE) : undefined,
    sessionLimits: {
      memoryBytes:
        positive(
          'XB_SESSION_MEMORY_MB',
          env.XB_SESSION_MEMORY_MB,
          DEFAULT_SESSION_LIMITS.memoryBytes / 1024 / 1024,
        ) *
        1024 *
        1024,
      pids: positive('XB_SESSION_PIDS', env.XB_SESSION_PIDS, DEFAULT_SESSION_LIMITS.pids),
      cpus: cpus(env.XB_SESSION_CPUS),
    },
    sessionDiskBytes:
      whole(
        'XB_SESSION_DISK_MB',
        env.XB_SESSION_DISK_MB,
        DEFAULT_SESSION_DISK_BYTES / 1024 / 1024,
      ) *
      1024 *
      1024,
    shutdownSeconds: positive('XB_SHUTDOWN_SECONDS', env.XB_SHUTDOWN_SECONDS, 30),
    drainSeconds: whole('XB_DRAIN_SECONDS', env.XB_DRAIN_SECONDS, 0),
    connectionLimits: {
      perClient: positive(
        'XB_MAX_CONNECTIONS_PER_CLIENT',
        env.XB_MAX_CONNECTIONS_PER_CLIENT,
        DEFAULT_CONNECTION_LIMITS.perClient,
      ),
      unauthenticated: positive(
        'XB_MAX_UNAUTHENTICATED_CONNECTIONS',
        env.XB_MAX_UNAUTHENTICATED_CONNECTIONS,
        DEFAULT_CONNECTION_LIMITS.unauthenticated,
      ),
    },
    watchBudget: {
      perSession: positive(
        'XB_WATCH_ENTRIES_PER_BROWSER',
        env.XB_WATCH_ENTRIES_PER_BROWSER,
        DEFAULT_WATCH_BUDGET.perSession,
      ),
      total: positive('XB_WATCH_ENTRIES', env.XB_WATCH_ENTRIES, DEFAULT_WATCH_BUDGET.total),
    },
    limits: {
      processes: positive(
        'XB_MAX_PROCESSES_PER_BROWSER',
        env.XB_MAX_PROCESSES_PER_BROWSER,
        DEFAULT_BROWSER_LIMITS.processes,
      ),
      watches: positive(
        'XB_MAX_WATCHES_PER_BROWSER',
        env.XB_MAX_WATCHES_PER_BROWSER,
        DEFAULT_BROWSER_LIMITS.watches,
      ),
      processOutputBytes: positive(
        'XB_PROCESS_OUTPUT_BYTES',
        env.XB_PROCESS_OUTPUT_BYTES,
        DEFAULT_BROWSER_LIMITS.processOutputBytes,
      ),
      endedProcesses: whole(
        'XB_ENDED_PROCESSES_KEPT',
        env.XB_ENDED_PROCESSES_KEPT,
        DEFAULT_BROWSER_LIMITS.endedProcesses,
      ),
      fileOperations: positive(
        'XB_MAX_FILE_OPERATIONS_PER_BROWSER',
        env.XB_MAX_FILE_OPERATIONS_PER_BROWSER,
        DEFAULT_BROWSER_LIMITS.fileOperations,
      ),
      logStreams: positive(
        'XB_MAX_LOG_STREAMS_PER_BROWSER',
        env.XB_MAX_LOG_STREAMS_PER_BROWSER,
        DEFAULT_BROWSER_LIMITS.logStreams,
      ),
    },
  };
}
