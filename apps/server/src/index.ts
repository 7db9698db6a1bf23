/** The self-hosted server, for programs and tests that start it in-process. */
export { readConfig, type ServerConfig } from './config.js';
export { type RunningServer, type ServerParts, startServer } from './server.js';
