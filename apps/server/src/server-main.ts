/**
 * xb-server itself, loaded by `main.ts` once the Node.js it runs on is new enough. Configuration
 * comes from flags and the environment (see `xb-server --help` and the README); it stops
 * gracefully on SIGTERM or SIGINT, closing every browser. Its log goes to stdout, JSON lines
 * unless it is a terminal (XB_LOG_FORMAT); what is for people (where it listens, a token made on
 * the first start) goes to stderr.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { KeyMismatchError } from './cluster/cluster-node.js';
import { helpText, parseCommandLine, UsageError } from './command-line.js';
import { readConfig, type ServerConfig, SettingError } from './config.js';
import { type RunningServer, startServer } from './server.js';
import { DataDirInUseError } from './store/data-dir-lock.js';
import { cliCreateCommand } from './system/cli-hint.js';
import { closeInheritedDescriptors } from './system/inherited-fds.js';
import { prettyDestination } from './system/log-format.js';

declare const __XB_SERVER_VERSION__: string | undefined;
const VERSION = typeof __XB_SERVER_VERSION__ === 'string' ? __XB_SERVER_VERSION__ : 'dev';

/** Says what is wrong in one line, and how to learn more; exit 2 (a usage error). */
function usage(message: string): never {
  process.stderr.write(`xb-server: ${message}. See \`xb-server --help\`.\n`);
  process.exit(2);
}

let config: ServerConfig;
try {
  const command = parseCommandLine(process.argv.slice(2));
  if (command.kind === 'help') {
    process.stdout.write(`${helpText()}\n`);
    process.exit(0);
  }
  if (command.kind === 'version') {
    process.stdout.write(`${VERSION}\n`);
    process.exit(0);
  }
  config = readConfig({ ...process.env, ...command.settings });
} catch (error) {
  usage(error instanceof UsageError || error instanceof Error ? error.message : String(error));
}

// Whatever the server and its helpers (ffmpeg, Xvfb, the browsers) make is theirs alone.
process.umask(0o077);
const logger =
  config.logFormat === 'pretty'
    ? pino({ level: config.logLevel }, prettyDestination(process.stdout))
    : pino({ level: config.logLevel });
// What the server inherited (an open file of the shell that started it) reaches no sandbox.
const inherited = closeInheritedDescriptors();
if (inherited.length > 0)
  logger.info({ descriptors: inherited }, 'closed descriptors inherited from the parent');

// Listening for the signals comes first: one that arrives while the server starts (or the instant
// it says it listens) stops it gracefully, never kills it half-way.
let server: RunningServer | undefined;
let stopping: string | undefined;
const stop = (signal: string) => {
  if (stopping !== undefined) {
    // A second signal (Ctrl-C twice) does not wait for the graceful stop.
    logger.warn({ signal }, 'stopping at once');
    server?.kill();
    process.exit(1);
  }
  stopping = signal;
  if (server) shutDown(server, signal);
};
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
// SIGHUP re-reads the tokens file (the server listens for it then); without one it must not end
// the server, as its default action would: `systemctl reload` is safe either way.
process.on('SIGHUP', () => {
  if (!config.tokensFile) logger.info('SIGHUP: no tokens file to re-read (XB_TOKENS_FILE)');
});

function shutDown(running: RunningServer, signal: string): void {
  logger.info({ signal }, 'shutting down');
  // Past the deadline calls still in flight are cut, everything the server started is killed,
  // and it exits; a next start finishes what was left open (replays, records).
  const deadline = setTimeout(
    () => {
      logger.error(
        { deadlineSeconds: config.drainSeconds + config.shutdownSeconds },
        'shutdown took too long: killing what is left and exiting',
      );
      running.kill();
      process.exit(1);
    },
    (config.drainSeconds + config.shutdownSeconds) * 1000,
  );
  deadline.unref();
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}

server = await startServer(config, logger).catch((error: unknown) => {
  // Nothing is left running: say why in one line, and log it.
  if (error instanceof DataDirInUseError) logger.error({ holder: error.holder }, error.message);
  else logger.error({ err: error }, 'could not start');
  process.stderr.write(`xb-server: ${(error as Error).message}\n`);
  // A setting to correct (a key that is not the cluster's) is a usage error, as a bad flag is.
  process.exit(error instanceof KeyMismatchError || error instanceof SettingError ? 2 : 1);
});
if (stopping !== undefined) shutDown(server, stopping);
else announce(server);

/** Says where the server listens (and, on a first start, the token it made). */
function announce(running: RunningServer): void {
  logger.info(
    {
      url: running.url,
      publicUrl: running.publicUrl,
      metricsUrl: running.metricsUrl,
      dataDir: config.dataDir,
      maxBrowsers: config.maxBrowsers,
    },
    'listening',
  );
  // Said plainly too, whatever the log level, for people and for scripts that start the server:
  // on stderr, so stdout stays JSON lines.
  process.stderr.write(`xb-server listening at ${running.url}\n`);
  if (!config.publicUrl) {
    process.stderr.write(
      `xb-server hands out URLs of ${running.publicUrl}: set XB_PUBLIC_URL (--public-url) to the address clients reach it at.\n`,
    );
  }
  if (running.tokens.generated) {
    // Said once, on the first start, and never logged; it is kept in the data directory's
    // `token` file.
    process.stderr.write(
      `\nxb-server generated an API token (saved in ${config.dataDir}/token):\n\n  ${running.tokens.generated}\n\n` +
        'Use it from a shell on this machine:\n\n' +
        `  export XB_BASE_URL=${running.publicUrl} XB_TOKEN=$(cat ${config.dataDir}/token)\n` +
        cliCreateCommand({
          path: process.env.PATH,
          serverDist: dirname(fileURLToPath(import.meta.url)),
          execPath: process.execPath,
        })
          .map((line) => `  ${line}\n`)
          .join('') +
        '\n' +
        'or send it as `Authorization: Bearer <token>` (the Kernel SDK: apiKey, with baseURL the URL above).\n\n',
    );
  }
}
