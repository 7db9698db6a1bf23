import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserPool } from '@x/types';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { readConfig } from '../config.js';
import { type RunningServer, startServer } from '../server.js';
import { freePort } from './postgres-cluster.js';
import { jsonCaller, TEST_ALLOW_NETWORKS, TEST_TOKEN } from './servers.js';
import { clusterKeyFile } from './test-cluster.js';

/* What the cluster's tests share: its nodes as an operator starts them, and waits on them. */

/** A node of the cluster on `databaseUrl`, on a port of its own, in a fresh data directory. */
export async function startNode(
  databaseUrl: string,
  env: Record<string, string> = {},
  attempt = 1,
): Promise<RunningServer> {
  // Its address is said before it listens: a port another process took meanwhile, a new one.
  const port = await freePort();
  try {
    return await startServer(
      readConfig({
        XB_ALLOW_NETWORKS: TEST_ALLOW_NETWORKS,
        XB_DATA_DIR: mkdtempSync(join(tmpdir(), 'xb-cluster-')),
        XB_PORT: String(port),
        XB_NODE_URL: `http://127.0.0.1:${port}`,
        XB_TOKENS: TEST_TOKEN,
        XB_SPARE_BROWSERS: '0',
        XB_MAX_BROWSERS: '4',
        XB_DATABASE_URL: databaseUrl,
        XB_SECRET_KEY_FILE: clusterKeyFile(databaseUrl),
        ...env,
      }),
      pino({ level: process.env.XB_TEST_LOG ?? 'silent' }),
    );
  } catch (error) {
    if (attempt < 3 && (error as { code?: string }).code === 'EADDRINUSE')
      return startNode(databaseUrl, env, attempt + 1);
    throw error;
  }
}

/** Waits (5 s at most) until `node` reads `count` nodes up, itself among them. */
export const seesUp = (node: RunningServer, count: number) =>
  expect
    .poll(() => node.cluster?.members().filter((member) => member.state === 'up').length, {
      timeout: 5_000,
    })
    .toBe(count);

/**
 * Waits (`timeout` ms) until pool `pool` (id or name) reads `count` warm browsers through `node`
 * (a call refused meanwhile, such as a pool moving, reads as its status).
 */
export const warmThrough = (
  node: { readonly url: string },
  pool: string,
  count: number,
  timeout: number,
) =>
  expect
    .poll(
      async () => {
        const read = await jsonCaller(() => node.url)<BrowserPool>('GET', `/browser_pools/${pool}`);
        return read.status === 200 ? read.json.available_count : read.status;
      },
      { timeout, interval: 250 },
    )
    .toBe(count);

/** `url` with its origin swapped for `node`'s: the same session URL, reached through that node. */
export const through = (url: string, node: RunningServer) => {
  const moved = new URL(url);
  const target = new URL(node.url);
  moved.host = target.host;
  return moved.toString();
};

/** A page the browsers load, on loopback, for the file's tests: its URL once it listens. */
export function useClusterSite(): () => string {
  let site: Server;
  let siteUrl = '';
  beforeAll(async () => {
    site = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<title>cluster</title><h1>one service</h1>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));
  return () => siteUrl;
}
