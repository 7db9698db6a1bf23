#!/usr/bin/env -S node --max-semi-space-size=4
/**
 * xb-server: the self-hosted service. This entry only checks that the Node.js it runs on is one
 * the server works on (its `engines`: `node:sqlite` and the rest), and says so in one line (exit
 * 1) rather than failing half-way through loading; then it loads the server (`server-main.ts`).
 *
 * The young generation is capped at 4 MiB per semi-space (the flag above; `pnpm start` passes
 * it too): under load V8 otherwise grows it to 3 x 16 MiB and keeps it, which the soak measured
 * as most of the server's growth (+123 MiB after 10 minutes, against +18 MiB with the cap).
 */

/** The oldest Node.js major the server runs on: `engines.node` of its package.json. */
export const NODE_MAJOR = 24;

if (Number(process.versions.node.split('.')[0]) < NODE_MAJOR) {
  process.stderr.write(
    `xb-server: needs Node.js ${NODE_MAJOR} or newer, and ${process.execPath} is Node.js ${process.versions.node}.\n`,
  );
  process.exit(1);
}
// A URL the bundler leaves alone: the server is a file of its own, loaded only past the check.
await import(new URL('./server-main.js', import.meta.url).href);
