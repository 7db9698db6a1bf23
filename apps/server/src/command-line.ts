import { parseArgs } from 'node:util';
import { DEFAULT_BROWSER_LIMITS } from '@x/service-kernel';
import { DEFAULT_MAX_PROFILE_MB, DEFAULT_PROXY_CHECK_URL } from './config.js';
import { DEFAULT_WATCH_BUDGET } from './fs-watch/sandbox-watcher.js';
import { DEFAULT_CONNECTION_LIMITS } from './http/connection-guard.js';
import { DEFAULT_SESSION_LIMITS } from './sandbox/cgroups.js';
import { DEFAULT_SESSION_DISK_BYTES } from './sandbox/instance-disks.js';

const MIB = 1024 * 1024;

/** One setting of the server: its flag, the environment variable it mirrors, and its default. */
export interface ServerOption {
  /** Long flag name without dashes: `data-dir`. */
  readonly flag: string;
  readonly env: string;
  /** What the value looks like in help: `<n>`, `<path>`. */
  readonly value: string;
  readonly description: string;
  /** The default, as help says it. */
  readonly defaultText: string;
}

/**
 * Every setting the server reads. A flag wins over its environment variable. Secrets (tokens)
 * have no flag: a command line is visible to every user of the host (`ps`); they come from the
 * environment or a file.
 */
export const SERVER_OPTIONS: readonly ServerOption[] = [
  {
    flag: 'host',
    env: 'XB_HOST',
    value: '<address>',
    description: 'address to listen on',
    defaultText: '127.0.0.1',
  },
  {
    flag: 'port',
    env: 'XB_PORT',
    value: '<n>',
    description: 'port to listen on; 0 picks a free one (PORT is read too)',
    defaultText: '8080',
  },
  {
    flag: 'public-url',
    env: 'XB_PUBLIC_URL',
    value: '<url>',
    description:
      'the URL clients reach the server at (https://browsers.example.com); every URL handed out is built from it',
    defaultText: 'from the bind address',
  },
  {
    flag: 'data-dir',
    env: 'XB_DATA_DIR',
    value: '<path>',
    description: 'where records, profiles, extensions, replays and each browser’s files live',
    defaultText: './.xb-data',
  },
  {
    flag: 'tokens-file',
    env: 'XB_TOKENS_FILE',
    value: '<path>',
    description:
      'file of API tokens, one per line ("read-only <token>" for a read-only one), re-read on change and on SIGHUP',
    defaultText: 'none',
  },
  {
    flag: 'allow-networks',
    env: 'XB_ALLOW_NETWORKS',
    value: '<list>',
    description:
      'private destinations every session may reach besides the public internet, comma-separated: CIDRs (10.1.0.0/16) or address:port (127.0.0.1:8080); * accepts an open network (no egress policy)',
    defaultText:
      'none: loopback, link-local, private, CGNAT, multicast and the host itself are refused',
  },
  {
    flag: 'session-nameservers',
    env: 'XB_SESSION_NAMESERVERS',
    value: '<list>',
    description:
      "resolvers the sessions' names are asked of, comma-separated IPv4 addresses, each with :port if not 53 (a company's own resolver)",
    defaultText: "the host's, from /etc/resolv.conf",
  },
  {
    flag: 'session-ca-file',
    env: 'XB_SESSION_CA_FILE',
    value: '<path>',
    description:
      'PEM file of certificate authorities sessions trust besides the public ones (an internal CA, a TLS-inspecting network): browsers, deployed code and its npm installs',
    defaultText: 'none',
  },
  {
    flag: 'database-url',
    env: 'XB_DATABASE_URL',
    value: '<url>',
    description:
      "keep records, idempotency answers and the archives records name in PostgreSQL (postgres://user:password@host:5432/db) instead of the data directory's SQLite file; never logged",
    defaultText: 'SQLite in the data directory',
  },
  {
    flag: 'node-url',
    env: 'XB_NODE_URL',
    value: '<url>',
    description:
      'with PostgreSQL, the http address the other nodes of the cluster reach this one at (http://10.0.0.12:8080); needed once more than one node runs',
    defaultText: 'the bind address',
  },
  {
    flag: 'metrics-port',
    env: 'XB_METRICS_PORT',
    value: '<n>',
    description:
      'serve GET /metrics without a token on this loopback port, 0 a free one (on the main port it needs a token)',
    defaultText: 'none',
  },
  {
    flag: 'max-browsers',
    env: 'XB_MAX_BROWSERS',
    value: '<n>',
    description: 'most browsers at once; one more is 429',
    defaultText: 'one per 400 MB of three quarters of the memory, at most four per core',
  },
  {
    flag: 'max-invocations',
    env: 'XB_MAX_INVOCATIONS',
    value: '<n>',
    description: 'most invocations whose code runs at once; one more is 429',
    defaultText: 'as many as browsers',
  },
  {
    flag: 'spare-browsers',
    env: 'XB_SPARE_BROWSERS',
    value: '<n>',
    description:
      'browsers kept started ahead for the next create of the configuration last asked for (within max-browsers); 0 for none',
    defaultText: '1',
  },
  {
    flag: 'audit-days',
    env: 'XB_AUDIT_DAYS',
    value: '<n>',
    description: 'days the audit log keeps each write; older entries are pruned hourly',
    defaultText: '30',
  },
  {
    flag: 'chrome-path',
    env: 'CHROME_PATH',
    value: '<path>',
    description: 'the Chromium to run',
    defaultText: '/usr/lib/chromium/chromium (Debian), else /usr/bin/chromium',
  },
  {
    flag: 'log-level',
    env: 'XB_LOG_LEVEL',
    value: '<level>',
    description: 'trace, debug, info, warn, error or fatal',
    defaultText: 'info',
  },
  {
    flag: 'log-format',
    env: 'XB_LOG_FORMAT',
    value: '<format>',
    description:
      'json (a line of JSON per entry, for collectors) or pretty (for a person), on stdout',
    defaultText: 'pretty on a terminal, json otherwise',
  },
  {
    flag: 'processes',
    env: 'XB_PROCESSES',
    value: '<on|off>',
    description: 'whether processes may run beside browsers (off: 403)',
    defaultText: 'on',
  },
  {
    flag: 'session-memory-mb',
    env: 'XB_SESSION_MEMORY_MB',
    value: '<n>',
    description: 'memory of one session (browser and its processes), MiB',
    defaultText: String(DEFAULT_SESSION_LIMITS.memoryBytes / MIB),
  },
  {
    flag: 'session-pids',
    env: 'XB_SESSION_PIDS',
    value: '<n>',
    description: 'processes and threads of one session',
    defaultText: String(DEFAULT_SESSION_LIMITS.pids),
  },
  {
    flag: 'session-cpus',
    env: 'XB_SESSION_CPUS',
    value: '<cores>',
    description: 'CPU of one session, in cores',
    defaultText: String(DEFAULT_SESSION_LIMITS.cpus),
  },
  {
    flag: 'session-disk-mb',
    env: 'XB_SESSION_DISK_MB',
    value: '<n>',
    description: 'disk of one session’s home, MiB, reserved in full (0: none)',
    defaultText: String(DEFAULT_SESSION_DISK_BYTES / MIB),
  },
  {
    flag: 'max-profile-mb',
    env: 'XB_MAX_PROFILE_MB',
    value: '<n>',
    description: 'largest saved profile, MiB',
    defaultText: String(DEFAULT_MAX_PROFILE_MB),
  },
  {
    flag: 'secret-key-file',
    env: 'XB_SECRET_KEY_FILE',
    value: '<path>',
    description: 'key that seals proxy passwords, made on first start',
    defaultText: '<data dir>.key',
  },
  {
    flag: 'proxy-check-url',
    env: 'XB_PROXY_CHECK_URL',
    value: '<url>',
    description: 'site a proxy check asks through the proxy',
    defaultText: DEFAULT_PROXY_CHECK_URL,
  },
  {
    flag: 'onepassword-connect-url',
    env: 'XB_ONEPASSWORD_CONNECT_URL',
    value: '<url>',
    description: '1Password Connect server of credential providers created without a url',
    defaultText: 'none',
  },
  {
    flag: 'shutdown-seconds',
    env: 'XB_SHUTDOWN_SECONDS',
    value: '<n>',
    description: 'longest a graceful stop may take before everything is killed',
    defaultText: '30',
  },
  {
    flag: 'drain-seconds',
    env: 'XB_DRAIN_SECONDS',
    value: '<n>',
    description:
      'on SIGTERM, first drain this long: no new browser starts here (other nodes take them), sessions in use may end; then stop',
    defaultText: '0 (no draining)',
  },
  {
    flag: 'max-processes-per-browser',
    env: 'XB_MAX_PROCESSES_PER_BROWSER',
    value: '<n>',
    description: 'processes one browser may run at once',
    defaultText: String(DEFAULT_BROWSER_LIMITS.processes),
  },
  {
    flag: 'max-watches-per-browser',
    env: 'XB_MAX_WATCHES_PER_BROWSER',
    value: '<n>',
    description: 'directory watches one browser may hold',
    defaultText: String(DEFAULT_BROWSER_LIMITS.watches),
  },
  {
    flag: 'max-connections-per-client',
    env: 'XB_MAX_CONNECTIONS_PER_CLIENT',
    value: '<n>',
    description: 'connections one address may hold at once; past it a new one is closed',
    defaultText: String(DEFAULT_CONNECTION_LIMITS.perClient),
  },
  {
    flag: 'max-unauthenticated-connections',
    env: 'XB_MAX_UNAUTHENTICATED_CONNECTIONS',
    value: '<n>',
    description: 'connections that showed no credential yet; past it the oldest is closed',
    defaultText: String(DEFAULT_CONNECTION_LIMITS.unauthenticated),
  },
  {
    flag: 'watch-entries-per-browser',
    env: 'XB_WATCH_ENTRIES_PER_BROWSER',
    value: '<n>',
    description: "inotify entries (one per watched directory) one browser's watches may hold",
    defaultText: String(DEFAULT_WATCH_BUDGET.perSession),
  },
  {
    flag: 'watch-entries',
    env: 'XB_WATCH_ENTRIES',
    value: '<n>',
    description: "inotify entries every browser's watches may hold together",
    defaultText: String(DEFAULT_WATCH_BUDGET.total),
  },
  {
    flag: 'process-output-bytes',
    env: 'XB_PROCESS_OUTPUT_BYTES',
    value: '<n>',
    description: 'output kept per process, bytes',
    defaultText: String(DEFAULT_BROWSER_LIMITS.processOutputBytes),
  },
  {
    flag: 'ended-processes-kept',
    env: 'XB_ENDED_PROCESSES_KEPT',
    value: '<n>',
    description: 'ended processes kept readable per browser',
    defaultText: String(DEFAULT_BROWSER_LIMITS.endedProcesses),
  },
  {
    flag: 'max-file-operations-per-browser',
    env: 'XB_MAX_FILE_OPERATIONS_PER_BROWSER',
    value: '<n>',
    description: 'file operations one browser may have in flight',
    defaultText: String(DEFAULT_BROWSER_LIMITS.fileOperations),
  },
  {
    flag: 'max-log-streams-per-browser',
    env: 'XB_MAX_LOG_STREAMS_PER_BROWSER',
    value: '<n>',
    description: 'log streams one browser may have open',
    defaultText: String(DEFAULT_BROWSER_LIMITS.logStreams),
  },
];

/** Settings only the environment gives: secrets never go on a command line. */
export const ENVIRONMENT_ONLY = [
  { env: 'XB_TOKENS', description: 'API tokens with every right, comma-separated' },
  { env: 'XB_READ_ONLY_TOKENS', description: 'read-only API tokens, comma-separated' },
] as const;

/** What the command line asks for. */
export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  /** Start the server with these settings over the environment's (by environment name). */
  | { readonly kind: 'run'; readonly settings: Readonly<Record<string, string>> };

/** A command line the server cannot run: one line to print, then the hint. */
export class UsageError extends Error {}

/**
 * Reads `xb-server`'s arguments. Nothing starts unless asked: `--help` and `--version` answer and
 * end; an unknown flag or a stray argument is a UsageError naming it.
 */
export function parseCommandLine(argv: readonly string[]): Command {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  };
  for (const option of SERVER_OPTIONS) options[option.flag] = { type: 'string' };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: false, strict: true });
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
    if (unknown) throw new UsageError(`unknown flag ${unknown}`);
    const positional = /^Unexpected argument '([^']+)'/.exec(message)?.[1];
    if (positional) throw new UsageError(`unexpected argument "${positional}"`);
    throw new UsageError(message.split('\n')[0]?.replace(/\.$/, '') ?? message);
  }
  if (parsed.values.help) return { kind: 'help' };
  if (parsed.values.version) return { kind: 'version' };
  const settings: Record<string, string> = {};
  for (const option of SERVER_OPTIONS) {
    const value = parsed.values[option.flag];
    if (typeof value === 'string') settings[option.env] = value;
  }
  return { kind: 'run', settings };
}

/** `xb-server --help`: every setting with its flag, environment variable and default. */
export function helpText(): string {
  const width = Math.max(
    ...SERVER_OPTIONS.map((option) => option.flag.length + option.value.length + 3),
  );
  const lines = SERVER_OPTIONS.map(
    (option) =>
      `  --${`${option.flag} ${option.value}`.padEnd(width)}  ${option.description}\n  ${' '.repeat(width + 2)}  (${option.env}; default ${option.defaultText})`,
  );
  return [
    'Usage: xb-server [flags]',
    '',
    'The self-hosted cloud browser service: the API on HTTP, driving real Chromium, each session',
    'in a sandbox of its own. Stops gracefully on SIGTERM or SIGINT; re-reads its tokens file on',
    'SIGHUP. Logs are JSON lines on stdout; a token made on the first start is said on stderr once.',
    '',
    'Flags (each mirrors an environment variable; a flag wins):',
    ...lines,
    `${'  -h, --help'.padEnd(width + 4)}  this help`,
    `${'  -v, --version'.padEnd(width + 4)}  the version`,
    '',
    'Only from the environment (a command line is visible to every user of the host):',
    ...ENVIRONMENT_ONLY.map((entry) => `  ${entry.env.padEnd(width)}  ${entry.description}`),
    '',
    'Health: GET /livez (the process answers), GET /readyz (Chromium, bubblewrap and ffmpeg found,',
    'the data directory writable, the disk not full; 503 with the reason otherwise).',
  ].join('\n');
}
