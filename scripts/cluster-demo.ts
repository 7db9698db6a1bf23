/**
 * Many nodes, one service, on this machine: starts a throw-away PostgreSQL (initdb in a temporary
 * folder, a free loopback port) and three xb-server nodes on it, each with its own data directory
 * and port. Through each node it makes a session, drives it through the other two (Playwright
 * over CDP, the session's URL aimed at them) and deletes it through the next; then it kills one
 * node outright and shows the others find its session lost and make its pool whole again (a
 * pool's browsers run on every node: those on the others are kept). Everything
 * it started is stopped and removed at the end. Run through `bash scripts/cluster-demo.sh`, which builds the server first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { freePort, PostgresCluster } from '../apps/server/src/test-support/postgres-cluster.ts';

const XB_SERVER = 'apps/server/dist/main.js';
const TOKEN = 'cluster-demo-token';
/** One sealing key for the three nodes, as an operator gives every node of a cluster. */
const KEY_FILE = join(mkdtempSync(join(tmpdir(), 'xb-cluster-demo-key-')), 'secret.key');

interface Node {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  readonly dataDir: string;
}

const call = async <T>(node: Node, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as T };
};

/** A session URL aimed at `node`: the same session, reached through that node. */
const through = (url: string, node: Node) => {
  const moved = new URL(url);
  moved.host = new URL(node.url).host;
  return moved.toString();
};

async function startNode(name: string, databaseUrl: string): Promise<Node> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `xb-cluster-demo-${name}-`));
  const child = spawn(process.execPath, [XB_SERVER], {
    env: {
      ...process.env,
      XB_DATABASE_URL: databaseUrl,
      XB_PORT: String(port),
      XB_NODE_URL: `http://127.0.0.1:${port}`,
      XB_DATA_DIR: dataDir,
      XB_SECRET_KEY_FILE: KEY_FILE,
      XB_TOKENS: TOKEN,
      XB_MAX_BROWSERS: '3',
      XB_SPARE_BROWSERS: '0',
      XB_ALLOW_NETWORKS: '127.0.0.1/32',
      XB_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const found = /xb-server listening at (\S+)/.exec(said)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`node ${name} exited ${code}: ${said}`)));
  });
  console.log(`node ${name} listening at ${url}`);
  return { name, url, child, dataDir };
}

const site = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' });
  response.end('<title>one service</title><h1>many nodes</h1>');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const page = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;

const postgres = await PostgresCluster.start();
const nodes: Node[] = [];
try {
  const databaseUrl = postgres.createDatabase('xb');
  console.log(`PostgreSQL on 127.0.0.1:${postgres.port}`);
  for (const name of ['a', 'b', 'c']) nodes.push(await startNode(name, databaseUrl));
  // A session's id carries the tag of the node that runs it: 4 characters after the prefix.
  const tagOf = (id: string) => id.slice(id.indexOf('_') + 1, id.indexOf('_') + 5);
  console.log('');
  for (const [index, node] of nodes.entries()) {
    const { json: session } = await call<{ session_id: string; cdp_ws_url: string }>(
      node,
      'POST',
      '/browsers',
      {},
    );
    console.log(
      `made through node ${node.name}: ${session.session_id} (runs on the node tagged ${tagOf(session.session_id)})`,
    );
    for (const other of nodes.filter((each) => each !== node)) {
      const browser = await chromium.connectOverCDP(through(session.cdp_ws_url, other));
      const tab = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
      await tab.goto(page);
      console.log(`  driven through node ${other.name}: page title "${await tab.title()}"`);
      await browser.close();
    }
    const next = nodes[(index + 1) % nodes.length] as Node;
    const deleted = await call(next, 'DELETE', `/browsers/${session.session_id}`);
    console.log(`  deleted through node ${next.name}: ${deleted.status}`);
  }

  // A node killed outright: the others find its session lost, and take its pool.
  const victim = nodes[2] as Node;
  const { json: doomed } = await call<{ session_id: string }>(victim, 'POST', '/browsers', {});
  const { json: pool } = await call<{ id: string }>(victim, 'POST', '/browser_pools', {
    name: 'warm',
    size: 3,
    fill_rate_per_minute: 100,
  });
  for (;;) {
    const { json } = await call<{ available_count: number }>(victim, 'GET', '/browser_pools/warm');
    if (json.available_count === 3) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  /** The tags of the nodes that run the pool's browsers, as the store lists its sessions. */
  const poolNodes = async (through: Node) => {
    const { json } = await call<{ session_id: string; pool?: { id: string } }[]>(
      through,
      'GET',
      '/browsers?status=active&limit=100',
    );
    return json
      .filter((session) => session.pool?.id === pool.id)
      .map((session) => tagOf(session.session_id))
      .sort()
      .join(', ');
  };
  console.log(
    `\nmade through node ${victim.name}: ${doomed.session_id}, and pool "warm" (${pool.id}, held by the node tagged ${tagOf(pool.id)}), its 3 warm browsers on the nodes tagged ${await poolNodes(victim)}; killing node ${victim.name}`,
  );
  const killedAt = Date.now();
  victim.child.kill('SIGKILL');
  await once(victim.child, 'exit');
  for (;;) {
    const { json } = await call<{ end_reason?: string }>(
      nodes[0] as Node,
      'GET',
      `/browsers/${doomed.session_id}`,
    );
    if (json.end_reason) {
      console.log(
        `node a reads it ended (${json.end_reason}) ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`,
      );
      break;
    }
    if (Date.now() - killedAt > 30_000) throw new Error('the lost node was not found in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  for (;;) {
    const answer = await call<{ available_count?: number }>(
      nodes[1] as Node,
      'GET',
      '/browser_pools/warm',
    );
    if (answer.status === 200 && answer.json.available_count === 3) {
      console.log(
        `pool "warm" whole again ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill, its browsers on the nodes tagged ${await poolNodes(nodes[1] as Node)}`,
      );
      const { json: lease } = await call<{ session_id: string }>(
        nodes[1] as Node,
        'POST',
        '/browser_pools/warm/acquire',
        {},
      );
      console.log(
        `a lease through node b runs on the node tagged ${tagOf(lease.session_id)} (node b's own first)`,
      );
      await call(nodes[0] as Node, 'POST', '/browser_pools/warm/release', {
        session_id: lease.session_id,
      });
      break;
    }
    if (Date.now() - killedAt > 60_000) throw new Error('the pool was not whole again in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { json: after } = await call<{ session_id: string }>(
    nodes[0] as Node,
    'POST',
    '/browsers',
    {},
  );
  console.log(`a new session goes to a node that is left: ${after.session_id}`);
  // Room for what follows on a cluster of two nodes of three browsers each.
  await call(nodes[0] as Node, 'DELETE', '/browser_pools/warm');
  // A deploy drains a node first, through any node; it answers once its sessions ended.
  const drainedTag = tagOf(after.session_id);
  const draining = call<{ browsers_in_use: number }>(
    nodes[1] as Node,
    'POST',
    `/org/nodes/${drainedTag}/drain`,
    { wait_seconds: 30 },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  await call(nodes[1] as Node, 'DELETE', `/browsers/${after.session_id}`);
  const { json: drained } = await draining;
  const { json: listed } = await call<{ id: string; state: string }[]>(
    nodes[0] as Node,
    'GET',
    '/org/nodes',
  );
  console.log(
    `drained the node tagged ${drainedTag} through node b: ${drained.browsers_in_use} browsers in use there once its session ended; the nodes: ${listed.map((node) => `${node.id} ${node.state}`).join(', ')}`,
  );
  const { json: placed } = await call<{ session_id: string }>(
    nodes[0] as Node,
    'POST',
    '/browsers',
    {},
  );
  console.log(`a new session goes around it: ${placed.session_id}`);
  await call(nodes[0] as Node, 'DELETE', `/browsers/${placed.session_id}`);
} finally {
  for (const node of nodes) {
    if (node.child.exitCode === null && node.child.signalCode === null) {
      node.child.kill('SIGTERM');
      await once(node.child, 'exit');
    }
  }
  // The killed node's own leftovers go with a start and stop on its data directory.
  const killed = nodes[2];
  if (killed?.child.signalCode === 'SIGKILL') {
    const again = spawn(process.execPath, [XB_SERVER], {
      env: {
        ...process.env,
        XB_DATA_DIR: killed.dataDir,
        XB_SECRET_KEY_FILE: `${killed.dataDir}.key`,
        XB_PORT: '0',
        XB_TOKENS: TOKEN,
        XB_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve) => {
      again.stderr?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('listening at')) resolve();
      });
      again.once('exit', () => resolve());
    });
    if (again.exitCode === null) {
      again.kill('SIGTERM');
      await once(again, 'exit');
    }
  }
  for (const node of nodes) rmSync(node.dataDir, { recursive: true, force: true });
  rmSync(join(KEY_FILE, '..'), { recursive: true, force: true });
  await postgres.stop();
  site.close();
}
console.log('\nstopped: three nodes, PostgreSQL, everything they made');
