/**
 * A cluster as an operator starts one: three `xb-server` processes on one PostgreSQL, on one
 * host, started at the same moment (as a process manager starts them), sharing one key file.
 */
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Kernel from '@onkernel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, PostgresCluster } from '../src/test-support/postgres-cluster.js';
import { hostLeftovers } from './leftovers.js';
import { startShippedServer } from './shipped-server.js';

const TOKEN = 'system-cluster-token';

let postgres: PostgresCluster;
beforeAll(async () => {
  postgres = await PostgresCluster.start();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
});

type Node = Awaited<ReturnType<typeof startShippedServer>> & { dataDir: string };

/** Starts a node on `databaseUrl` with the key file `keyFile`, as its own process. */
async function startNode(databaseUrl: string, keyFile: string, attempt = 1): Promise<Node> {
  // Its port is found free, then taken by the node: one taken meanwhile, another.
  const port = await freePort();
  const dataDir = join(mkdtempSync(join(tmpdir(), 'xb-system-node-')), 'data');
  const started = await startShippedServer({
    XB_DATA_DIR: dataDir,
    XB_DATABASE_URL: databaseUrl,
    XB_SECRET_KEY_FILE: keyFile,
    XB_PORT: String(port),
    XB_NODE_URL: `http://127.0.0.1:${port}`,
    XB_TOKENS: TOKEN,
    XB_MAX_BROWSERS: '2',
  }).catch((error: Error) => {
    if (attempt < 3 && /EADDRINUSE/.test(error.message))
      return startNode(databaseUrl, keyFile, attempt + 1);
    throw error;
  });
  return 'dataDir' in started ? started : { ...started, dataDir };
}

async function stop(node: Node): Promise<void> {
  if (node.child.exitCode !== null) return;
  node.child.kill('SIGTERM');
  await once(node.child, 'exit');
}

describe('a cluster started the ordinary way', () => {
  it('three nodes started at the same moment each start browsers; each leaves nothing when stopped', async () => {
    const databaseUrl = postgres.createDatabase('together');
    const keyFile = join(mkdtempSync(join(tmpdir(), 'xb-system-key-')), 'cluster.key');
    // One key file for the three, made by whichever starts first (on other hosts, a copy of it).
    const starts = await Promise.allSettled([0, 1, 2].map(() => startNode(databaseUrl, keyFile)));
    const nodes = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    try {
      for (const start of starts) if (start.status === 'rejected') throw start.reason;
      const subnets = nodes.map(
        (node) => /"subnet":"([^"]+)"/.exec(node.output.stdout)?.[1] ?? 'none',
      );
      expect(new Set(subnets).size, subnets.join(' ')).toBe(3);
      for (const node of nodes) {
        const kernel = new Kernel({ apiKey: TOKEN, baseURL: node.url, maxRetries: 0 });
        const session = await kernel.browsers.create({ timeout_seconds: 60 });
        expect(session.cdp_ws_url).toMatch(/^ws/);
        await kernel.browsers.deleteByID(session.session_id);
      }
    } finally {
      await Promise.all(nodes.map(stop));
    }
    for (const node of nodes)
      expect(hostLeftovers(node.dataDir, node.output.stdout)).toMatchObject({
        processes: [],
        mounts: [],
        namespaces: [],
        tables: [],
        routes: [],
        claims: [],
      });
  }, 180_000);

  it('refuses a node whose key is not the cluster’s: exit 2, one line naming XB_SECRET_KEY_FILE', async () => {
    const databaseUrl = postgres.createDatabase('keys');
    const folder = mkdtempSync(join(tmpdir(), 'xb-system-keys-'));
    const first = await startNode(databaseUrl, join(folder, 'first.key'));
    try {
      const refused = startNode(databaseUrl, join(folder, 'other.key'));
      const error = (await refused.then(
        () => undefined,
        (reason: Error) => reason,
      )) as Error | undefined;
      expect(error?.message).toMatch(/^xb-server exited 2: /);
      const said = (error?.message ?? '')
        .replace(/^xb-server exited 2: /, '')
        .split('\n')
        .filter((line) => line.startsWith('xb-server: '));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/XB_SECRET_KEY_FILE/);
      expect(said[0]).toMatch(/same key file/);
    } finally {
      await stop(first);
    }
  }, 120_000);
});
