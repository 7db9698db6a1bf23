#!/usr/bin/env node
/**
 * xb-server: the self-hosted service. Configuration comes from the environment (see the README);
 * it stops gracefully on SIGTERM or SIGINT, closing every browser.
 */
import pino from 'pino';
import { readConfig } from './config.js';
import { startServer } from './server.js';

// Whatever the server and its helpers (ffmpeg, Xvfb, the browsers) make is theirs alone.
process.umask(0o077);
const config = readConfig();
const logger = pino({ level: config.logLevel });
const server = await startServer(config, logger);
logger.info(
  { url: server.url, dataDir: config.dataDir, maxBrowsers: config.maxBrowsers },
  'listening',
);
// Said plainly too, whatever the log level, for people and for scripts that start the server.
process.stdout.write(`xb-server listening at ${server.url}\n`);
if (server.tokens.generated) {
  // Printed once, on the first start; it is kept in the data directory's `token` file.
  process.stdout.write(
    `\nxb-server generated an API token (saved in ${config.dataDir}/token):\n\n  ${server.tokens.generated}\n\n`,
  );
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
