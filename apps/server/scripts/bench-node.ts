/**
 * A node for the cluster benchmark, in a process of its own as nodes run: the server as
 * configured by the environment (XB_*), its browsers stubbed (they start and close at once:
 * what is measured is the API, the store and the nodes agreeing). Says where it listens on
 * stderr, as `xb-server` does; stops at SIGTERM.
 */
import pino from 'pino';
import { readConfig, startServer } from '../dist/index.js';

const stubBrowsers = {
  check() {},
  async launch() {
    return {
      onExit() {},
      async close() {},
    };
  },
};

const server = await startServer(
  readConfig(process.env),
  pino({ level: process.env.XB_LOG_LEVEL ?? 'silent' }),
  // biome-ignore lint/suspicious/noExplicitAny: the stub stands in for Chromium's engine.
  { browsers: stubBrowsers as any },
);
process.stderr.write(`xb-server listening at ${server.url}\n`);
process.once('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
