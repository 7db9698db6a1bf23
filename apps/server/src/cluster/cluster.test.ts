import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { nodeTagOf } from '@x/service-kernel';
import { ContractContext, deployContractApp } from '@x/testing';
import type { BrowserPool, BrowserSession, DrainedNode, ServiceNode } from '@x/types';
import pg from 'pg';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../config.js';
import { type RunningServer, startServer } from '../server.js';
import { startBinary } from '../test-support/binary.js';
import { freePort } from '../test-support/postgres-cluster.js';
import { processesOfServer } from '../test-support/processes.js';
import { jsonCaller, TEST_ALLOW_NETWORKS, TEST_TOKEN } from '../test-support/servers.js';
import { TcpGate } from '../test-support/tcp-gate.js';
import { clusterKeyFile, useTestCluster } from '../test-support/test-cluster.js';
import { HOP_HEADER } from './hop-signing.js';
import { ClusterPoolPeers } from './pool-peers.js';

const postgres = useTestCluster();
const MiB = 1024 * 1024;

/** A node of the cluster on `databaseUrl`, on a port of its own, in a fresh data directory. */
async function startNode(
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
const seesUp = (node: RunningServer, count: number) =>
  expect
    .poll(() => node.cluster?.members().filter((member) => member.state === 'up').length, {
      timeout: 5_000,
    })
    .toBe(count);

/**
 * Waits (`timeout` ms) until pool `pool` (id or name) reads `count` warm browsers through `node`
 * (a call refused meanwhile, such as a pool moving, reads as its status).
 */
const warmThrough = (
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
const through = (url: string, node: RunningServer) => {
  const moved = new URL(url);
  const target = new URL(node.url);
  moved.host = target.host;
  return moved.toString();
};

/** A page the browsers load, on loopback. */
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

describe('three nodes on one PostgreSQL', () => {
  const nodes: RunningServer[] = [];
  beforeAll(async () => {
    const url = postgres.database();
    // One after the other: the first makes the cluster's secrets, the others find them.
    for (let index = 0; index < 3; index++) nodes.push(await startNode(url));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.close()));
  }, 120_000);

  it('each knows the others', async () => {
    for (const node of nodes) {
      await seesUp(node, 3);
    }
    const tags = nodes.map((node) => node.cluster?.tag);
    expect(new Set(tags).size).toBe(3);
  });

  it('answers any call on any node: made on one, read, driven and deleted through the others', async () => {
    const [one, two, three] = nodes as [RunningServer, RunningServer, RunningServer];
    const created = await jsonCaller(() => one.url)<BrowserSession>('POST', '/browsers', {
      name: 'across',
    });
    expect(created.status).toBe(201);
    const session = created.json;
    const owner = nodes.find((node) => node.cluster?.tag === nodeTagOf(session.session_id));
    expect(owner).toBeDefined();
    const others = nodes.filter((node) => node !== owner) as [RunningServer, RunningServer];
    for (const node of nodes) {
      const read = await jsonCaller(() => node.url)<BrowserSession>(
        'GET',
        `/browsers/${session.session_id}`,
      );
      expect(read.status).toBe(200);
      expect(read.json.session_id).toBe(session.session_id);
      // By name too: the name is looked up in the store.
      expect(
        (await jsonCaller(() => node.url)<BrowserSession>('GET', '/browsers/across')).json
          .session_id,
      ).toBe(session.session_id);
      const listed = await jsonCaller(() => node.url)<BrowserSession[]>('GET', '/browsers');
      expect(listed.json.map((item) => item.session_id)).toContain(session.session_id);
    }
    // DevTools through a node that does not run the browser.
    const browser = await chromium.connectOverCDP(through(session.cdp_ws_url, others[0]));
    try {
      const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
      await page.goto(siteUrl);
      expect(await page.evaluate(() => document.querySelector('h1')?.textContent)).toBe(
        'one service',
      );
    } finally {
      await browser.close();
    }
    // A process run through the other, its output streamed (SSE) through the first.
    const spawned = await jsonCaller(() => others[1].url)<{ process_id: string }>(
      'POST',
      `/browsers/${session.session_id}/process/spawn`,
      { command: 'sh', args: ['-c', 'for i in 1 2 3; do echo line-$i; sleep 0.2; done'] },
    );
    expect(spawned.status).toBe(200);
    const stream = await fetch(
      `${others[0].url}/browsers/${session.session_id}/process/${spawned.json.process_id}/stdout/stream`,
      { headers: { authorization: `Bearer ${TEST_TOKEN}` } },
    );
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const events = await stream.text();
    expect(events).toContain(Buffer.from('line-3\n').toString('base64'));
    // 50 MB up through a node that does not run the browser, streamed, and read back whole.
    const bytes = Buffer.alloc(50 * MiB);
    for (let index = 0; index < bytes.length; index += 4096) bytes[index] = index % 251;
    const form = new FormData();
    form.append('files[0][dest_path]', '/home/browser/big.bin');
    form.append('files[0][file]', new Blob([bytes]), 'big.bin');
    const uploaded = await fetch(`${others[1].url}/browsers/${session.session_id}/fs/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const read = await fetch(
      `${others[0].url}/browsers/${session.session_id}/fs/read_file?path=%2Fhome%2Fbrowser%2Fbig.bin`,
      { headers: { authorization: `Bearer ${TEST_TOKEN}` } },
    );
    const digest = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
    expect(digest(new Uint8Array(await read.arrayBuffer()))).toBe(digest(bytes));
    // The live view page through a node that does not run it.
    const live = await fetch(through(session.browser_live_view_url as string, others[1]));
    expect(live.status).toBe(200);
    expect(await live.text()).toContain('<canvas');
    // Its WebSocket too: the viewer hears the browser's screen through that node.
    const liveUrl = new URL(through(session.browser_live_view_url as string, others[1]));
    const viewer = new WebSocket(`ws://${liveUrl.host}${liveUrl.pathname}/ws${liveUrl.search}`);
    try {
      const first = await new Promise<unknown>((resolve, reject) => {
        viewer.addEventListener('message', (event) => resolve(event.data), { once: true });
        viewer.addEventListener('error', () => reject(new Error('the live view socket failed')));
      });
      expect(first).toBeDefined();
    } finally {
      viewer.close();
    }
    // Deleted through the third; every node reads it ended, and why.
    expect(
      (await jsonCaller(() => three.url)('DELETE', `/browsers/${session.session_id}`)).status,
    ).toBe(204);
    for (const node of [one, two, three]) {
      const ended = await jsonCaller(() => node.url)<BrowserSession>(
        'GET',
        `/browsers/${session.session_id}`,
      );
      expect(ended.json).toMatchObject({ end_reason: 'deleted' });
    }
  }, 120_000);

  it('places a new browser on the least loaded node, and is full only when every node is', async () => {
    const [one, two, three] = nodes as [RunningServer, RunningServer, RunningServer];
    const created: string[] = [];
    try {
      // Four places each: twelve browsers fit, made through one node.
      for (let index = 0; index < 12; index++) {
        const answer = await jsonCaller(() => one.url)<BrowserSession>('POST', '/browsers', {});
        expect(answer.status).toBe(201);
        created.push(answer.json.session_id);
      }
      const perNode = new Map<string, number>();
      for (const id of created) {
        const tag = nodeTagOf(id) as string;
        perNode.set(tag, (perNode.get(tag) ?? 0) + 1);
      }
      expect([...perNode.values()]).toEqual([4, 4, 4]);
      const refused = await jsonCaller(() => two.url)('POST', '/browsers', {});
      expect(refused.status).toBe(429);
    } finally {
      await Promise.all(
        created.map((id) => jsonCaller(() => three.url)('DELETE', `/browsers/${id}`)),
      );
    }
  }, 180_000);

  it('serves a pool through any node: the node that made it holds it, its browsers run on every node with room, each acquire takes one of the node it arrived at first', async () => {
    const [one, two, three] = nodes as [RunningServer, RunningServer, RunningServer];
    for (const node of nodes) await seesUp(node, 3);
    // Every node as one reads it holds nothing (the browsers of the tests before have ended).
    await expect
      .poll(() => one.cluster?.members().map((member) => member.running), { timeout: 10_000 })
      .toEqual([0, 0, 0]);
    const made = await jsonCaller(() => one.url)<{ id: string }>('POST', '/browser_pools', {
      name: 'shared-pool',
      size: 3,
      fill_rate_per_minute: 100,
    });
    expect(made.status).toBe(201);
    const leases: string[] = [];
    try {
      expect(nodeTagOf(made.json.id)).toBe(one.cluster?.tag);
      await warmThrough(three, 'shared-pool', 3, 30_000);
      // One warm browser on each node: the least loaded took each start.
      const warm = nodes.map((node) =>
        node.org.defaultModel.browsers
          .entries()
          .filter((entry) => entry.isWarm && entry.record.pool?.id === made.json.id),
      );
      expect(warm.map((entries) => entries.length)).toEqual([1, 1, 1]);
      // Through each node, the browser that runs there: handed out by that node itself, lent
      // to it by the holder, with no call between nodes on the way (the holder hears after).
      const callsBack = vi.spyOn(ClusterPoolPeers.prototype, 'lease');
      const callsToHolder = vi.spyOn(ClusterPoolPeers.prototype, 'acquire');
      for (const node of [two, three, one]) {
        const leased = await jsonCaller(() => node.url)<BrowserSession>(
          'POST',
          '/browser_pools/shared-pool/acquire',
          {},
        );
        expect(leased.status).toBe(200);
        expect(nodeTagOf(leased.json.session_id)).toBe(node.cluster?.tag);
        leases.push(leased.json.session_id);
        // Handed out: its idle time-out runs where it runs.
        expect(node.org.defaultModel.browsers.peek(leased.json.session_id)?.isWarm).toBe(false);
      }
      expect(callsBack).not.toHaveBeenCalled();
      expect(callsToHolder).not.toHaveBeenCalled();
      callsBack.mockRestore();
      callsToHolder.mockRestore();
      const listed = async () =>
        (
          await jsonCaller(() => two.url)<
            { id: string; name: string; acquired_count: number; available_count: number }[]
          >('GET', '/browser_pools')
        ).json.find((pool) => pool.id === made.json.id);
      await expect.poll(listed, { timeout: 15_000 }).toMatchObject({
        name: 'shared-pool',
        acquired_count: 3,
        available_count: 0,
      });
      // A lease of another node, driven and released through a third: its session ends there.
      const remote = leases[0] as string;
      const released = await jsonCaller(() => three.url)(
        'POST',
        `/browser_pools/${made.json.id}/release`,
        { session_id: remote },
      );
      expect(released.status).toBe(204);
      expect(two.org.defaultModel.browsers.peek(remote)).toBeUndefined();
      const ended = await jsonCaller(() => one.url)<BrowserSession>('GET', `/browsers/${remote}`);
      expect(ended.json.end_reason).toBe('released');
      leases.shift();
      // The pool fills again to its size, somewhere.
      await warmThrough(two, 'shared-pool', 1, 30_000);
    } finally {
      await jsonCaller(() => two.url)('DELETE', `/browser_pools/${made.json.id}?force=true`);
    }
    // Deleted with its browsers, on every node.
    await expect
      .poll(
        () =>
          nodes.flatMap((node) =>
            node.org.defaultModel.browsers
              .entries()
              .filter((entry) => entry.record.pool?.id === made.json.id),
          ).length,
        { timeout: 15_000 },
      )
      .toBe(0);
  }, 90_000);

  it('leases each warm browser once however many acquires race from every node, and serves waiters in order', async () => {
    const [one, two, three] = nodes as [RunningServer, RunningServer, RunningServer];
    const made = await jsonCaller(() => one.url)<{ id: string }>('POST', '/browser_pools', {
      name: 'raced',
      size: 3,
      fill_rate_per_minute: 100,
    });
    try {
      await warmThrough(two, 'raced', 3, 30_000);
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, index) =>
          jsonCaller(() => (nodes[index % 3] as RunningServer).url)<BrowserSession | undefined>(
            'POST',
            '/browser_pools/raced/acquire',
            { acquire_timeout_seconds: 0 },
          ),
        ),
      );
      const leased = answers.filter((answer) => answer.status === 200);
      const ids = leased.map((answer) => (answer.json as BrowserSession).session_id);
      // Every answer a lease or none left: no error, and no browser leased twice.
      expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 204)).toEqual(
        [],
      );
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(3);
      // Three waiters, one on each node, in that order: each release serves the oldest.
      const served: string[] = [];
      const waiters = [two, three, one].map(async (node, index) => {
        await new Promise((resolve) => setTimeout(resolve, index * 300));
        const answer = await jsonCaller(() => node.url)<BrowserSession>(
          'POST',
          '/browser_pools/raced/acquire',
          { acquire_timeout_seconds: 60 },
        );
        served.push(node.cluster?.tag as string);
        return answer.json.session_id;
      });
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      for (const id of ids) {
        const before = served.length;
        await jsonCaller(() => three.url)('POST', '/browser_pools/raced/release', {
          session_id: id,
        });
        await expect.poll(() => served.length, { timeout: 30_000 }).toBe(before + 1);
      }
      expect(served).toEqual([two, three, one].map((node) => node.cluster?.tag));
      for (const id of await Promise.all(waiters))
        await jsonCaller(() => one.url)('POST', '/browser_pools/raced/release', { session_id: id });
    } finally {
      await jsonCaller(() => two.url)('DELETE', `/browser_pools/${made.json.id}`);
    }
  }, 180_000);

  it('drops an acquire waiting through another node once its caller gives up: the next release serves the next waiter', async () => {
    const [one, two, three] = nodes as [RunningServer, RunningServer, RunningServer];
    const made = await jsonCaller(() => one.url)<{ id: string }>('POST', '/browser_pools', {
      name: 'given-up',
      size: 1,
      fill_rate_per_minute: 100,
    });
    try {
      await warmThrough(one, 'given-up', 1, 30_000);
      const first = await jsonCaller(() => one.url)<BrowserSession>(
        'POST',
        '/browser_pools/given-up/acquire',
        {},
      );
      expect(first.status).toBe(200);
      // A caller through node two waits, and gives up; one through node three waits after it.
      const quits = new AbortController();
      const quitter = fetch(`${two.url}/browser_pools/given-up/acquire`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ acquire_timeout_seconds: 60 }),
        signal: quits.signal,
      }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 500));
      quits.abort();
      expect(await quitter).toMatchObject({ name: 'AbortError' });
      const next = jsonCaller(() => three.url)<BrowserSession>(
        'POST',
        '/browser_pools/given-up/acquire',
        { acquire_timeout_seconds: 60 },
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      await jsonCaller(() => one.url)('POST', '/browser_pools/given-up/release', {
        session_id: first.json.session_id,
      });
      const served = await next;
      expect(served.status).toBe(200);
      expect(served.json.session_id).not.toBe(first.json.session_id);
      // Nothing was handed to the caller that left: one browser out, none lost.
      const pool = await jsonCaller(() => two.url)<BrowserPool>('GET', '/browser_pools/given-up');
      expect(pool.json).toMatchObject({ acquired_count: 1 });
      await jsonCaller(() => one.url)('POST', '/browser_pools/given-up/release', {
        session_id: served.json.session_id,
      });
      await warmThrough(three, 'given-up', 1, 30_000);
    } finally {
      await jsonCaller(() => two.url)('DELETE', `/browser_pools/${made.json.id}?force=true`);
    }
  }, 90_000);

  it('runs an invocation on the node its app was deployed through, asked through any node', async () => {
    const [one, two, three] = nodes as [RunningServer, RunningServer, RunningServer];
    const context = new ContractContext({
      baseUrl: two.url,
      token: TEST_TOKEN,
      readOnlyToken: TEST_TOKEN,
      timeoutMs: 60_000,
    });
    try {
      const app = await deployContractApp(context, { app: 'cluster-app' });
      expect(nodeTagOf(app.deployment)).toBe(two.cluster?.tag);
      const invoked = await jsonCaller(() => three.url)<{ id: string; output: string }>(
        'POST',
        '/invocations',
        { app_name: app.app, version: app.version, action_name: 'echo', payload: '"hello"' },
      );
      expect(invoked.status).toBe(200);
      expect(invoked.json.output).toBe('"hello"');
      expect(nodeTagOf(invoked.json.id)).toBe(two.cluster?.tag);
      const read = await jsonCaller(() => one.url)<{ status: string }>(
        'GET',
        `/invocations/${invoked.json.id}`,
      );
      expect(read.json.status).toBe('succeeded');
      const deployment = await jsonCaller(() => one.url)<{ status: string }>(
        'GET',
        `/deployments/${app.deployment}`,
      );
      expect(deployment.json.status).toBe('running');
    } finally {
      await context.cleanUp();
    }
  }, 120_000);

  it("holds a project to its cap on sessions across the nodes: its browsers and pools' sizes on every node count", async () => {
    const admin = jsonCaller(() => (nodes[0] as RunningServer).url);
    const project = (await admin<{ id: string }>('POST', '/org/projects', { name: 'capped' })).json;
    const key = (
      await admin<{ key: string }>('POST', '/org/api_keys', {
        name: 'capped',
        project_id: project.id,
      })
    ).json.key;
    const limits = await admin('PATCH', `/org/projects/${project.id}/limits`, {
      max_concurrent_sessions: 3,
    });
    expect(limits.status).toBe(200);
    const through = (index: number) => jsonCaller(() => (nodes[index] as RunningServer).url, key);
    const pool = await through(2)<BrowserPool>('POST', '/browser_pools', { size: 1 });
    expect(pool.status).toBe(201);
    const made: string[] = [];
    for (const index of [0, 1]) {
      const created = await through(index)<BrowserSession>('POST', '/browsers', {});
      expect(created.status).toBe(201);
      made.push(created.json.session_id);
    }
    // What counts is on more than one node: no one node alone would find the cap reached.
    const tags = new Set([pool.json.id, ...made].map((id) => nodeTagOf(id)));
    expect(tags.size).toBeGreaterThan(1);
    for (const index of [0, 1, 2]) {
      const past = await through(index)<{ message: string }>('POST', '/browsers', {});
      expect(past.status).toBe(429);
      expect(past.json.message).toMatch(/max_concurrent_sessions/);
    }
    expect((await through(0)('POST', '/browser_pools', { size: 1 })).status).toBe(429);
    for (const id of made) expect((await through(1)('DELETE', `/browsers/${id}`)).status).toBe(204);
    expect((await through(0)('DELETE', `/browser_pools/${pool.json.id}`)).status).toBe(204);
  });

  it('refuses a call passed between nodes with a bad signature, and passes none on twice', async () => {
    const [one] = nodes as [RunningServer];
    const forged = await fetch(`${one.url}/browsers`, {
      headers: {
        authorization: `Bearer ${TEST_TOKEN}`,
        [HOP_HEADER]: `abcd.${Math.floor(Date.now() / 1000)}.127-0-0-1.forged`,
      },
    });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { code: string }).code).toBe('forbidden');
  });

  it('starts no browser for a call between nodes that is not signed, or signed wrong, even with a token', async () => {
    const [one] = nodes as [RunningServer];
    const before = one.org.nodeBrowsers();
    const spec = { headless: true, stealth: false, kiosk_mode: false, timeout_seconds: 60 };
    const body = JSON.stringify({ project: 'proj_default', spec, origin: one.url });
    const unsigned = await fetch(`${one.url}/_node/pool-browsers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body,
    });
    expect(unsigned.status).toBe(404);
    const forged = await fetch(`${one.url}/_node/pool-browsers`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [HOP_HEADER]: `abcd.${Math.floor(Date.now() / 1000)}..forged`,
      },
      body,
    });
    expect(forged.status).toBe(403);
    expect(one.org.nodeBrowsers()).toBe(before);
  });

  it('takes a signed call between nodes once, for the node it names, with the body it was signed for', async () => {
    const [one, two] = nodes as [RunningServer, RunningServer];
    const before = one.org.nodeBrowsers();
    const path = '/_node/pool-browsers';
    // A real call of node two's, to node one: a pool browser of a pool that does not exist.
    const signed = Buffer.from(JSON.stringify({ project: 'default', spec: {}, origin: one.url }));
    const header = (two.forwarder as NonNullable<RunningServer['forwarder']>).signNodeCall(
      one.cluster?.tag as string,
      'POST',
      path,
      signed,
    );
    const send = (to: RunningServer, body: Buffer) =>
      fetch(`${to.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [HOP_HEADER]: header },
        body: body.toString(),
      });
    // Captured and sent with another body (a browser of the attacker's choosing): refused.
    const spec = { headless: true, stealth: false, kiosk_mode: false, timeout_seconds: 60 };
    const other = Buffer.from(JSON.stringify({ project: 'default', spec, origin: one.url }));
    const swapped = await send(one, other);
    expect(swapped.status).toBe(403);
    expect(((await swapped.json()) as { message: string }).message).toMatch(/not the one signed/);
    // To a node it was not signed for: refused.
    expect((await send(two, signed)).status).toBe(403);
    // As signed, once: taken (its spec is not one, so it starts nothing); then never again.
    const first = await send(one, signed);
    expect(first.status).toBe(400);
    expect((await send(one, signed)).status).toBe(403);
    expect(one.org.nodeBrowsers()).toBe(before);
  });
});

describe('a node lost', () => {
  it('killed: within 10 s its sessions are ended, its URLs refused, its pools made whole elsewhere; its next start reaps what it left', async () => {
    const url = postgres.database();
    const one = await startNode(url);
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-cluster-victim-'));
    const env = {
      XB_DATABASE_URL: url,
      XB_SECRET_KEY_FILE: clusterKeyFile(url),
      XB_PORT: String(port),
      XB_NODE_URL: `http://127.0.0.1:${port}`,
      XB_TOKENS: TEST_TOKEN,
      XB_MAX_BROWSERS: '4',
    };
    let victim = await startBinary(dataDir, env);
    try {
      await seesUp(one, 2);
      const victimTag = one.cluster?.members().find((member) => member.url === victim.url)?.id;
      // Made on the victim (as little loaded as the other, it keeps it).
      const created = await jsonCaller(() => victim.url)<BrowserSession>('POST', '/browsers', {});
      const session = created.json;
      expect(nodeTagOf(session.session_id)).toBe(victimTag);
      // A pool made on the victim too: it lives there, its warm browsers with it.
      const pool = await jsonCaller(() => victim.url)<BrowserPool>('POST', '/browser_pools', {
        name: 'moves',
        size: 2,
        fill_rate_per_minute: 100,
      });
      expect(pool.status).toBe(201);
      expect(nodeTagOf(pool.json.id)).toBe(victimTag);
      await warmThrough(one, 'moves', 2, 15_000);
      // An app deployed on the victim, an invocation of it running (asked through the other).
      const app = await deployContractApp(
        new ContractContext({
          baseUrl: victim.url,
          token: TEST_TOKEN,
          readOnlyToken: TEST_TOKEN,
          timeoutMs: 60_000,
        }),
        { app: 'lost-app' },
      );
      const invoked = await jsonCaller(() => one.url)<{ id: string; status: string }>(
        'POST',
        '/invocations',
        { app_name: app.app, version: app.version, action_name: 'contract', async: true },
      );
      expect(invoked.json.status).toBe('queued');
      expect(nodeTagOf(invoked.json.id)).toBe(victimTag);
      // Driven through the other node.
      const browser = await chromium.connectOverCDP(through(session.cdp_ws_url, one));
      const disconnected = new Promise<number>((resolve) =>
        browser.on('disconnected', () => resolve(Date.now())),
      );
      const left = processesOfServer(dataDir);
      expect(left.length).toBeGreaterThan(0);
      const killedAt = Date.now();
      victim.child.kill('SIGKILL');
      // Its DevTools connection through the other node ends with it (bounded: a hang says so).
      const endedAt = await Promise.race([disconnected, delay(10_000).then(() => Infinity)]);
      expect(endedAt - killedAt, 'the DevTools connection did not end').toBeLessThan(2_000);
      await expect
        .poll(
          async () =>
            (
              await jsonCaller(() => one.url)<BrowserSession>(
                'GET',
                `/browsers/${session.session_id}`,
              )
            ).json.end_reason,
          { timeout: 15_000, interval: 200 },
        )
        .toBe('node_lost');
      const detectedMs = Date.now() - killedAt;
      expect(detectedMs).toBeLessThan(10_000);
      // Its invocation failed saying why (it no longer counts toward the project's cap).
      await expect
        .poll(
          async () =>
            (
              await jsonCaller(() => one.url)<{ status: string; status_reason?: string }>(
                'GET',
                `/invocations/${invoked.json.id}`,
              )
            ).json,
          { timeout: 5_000, interval: 200 },
        )
        .toMatchObject({ status: 'failed', status_reason: expect.stringMatching(/node .* lost/) });
      // Its app's code is on its disk: an invocation of it is 503 until it is back, saying why.
      const away = await jsonCaller(() => one.url)<{ message: string }>('POST', '/invocations', {
        app_name: app.app,
        version: app.version,
        action_name: 'echo',
        payload: '1',
      });
      expect(away.status).toBe(503);
      expect(away.json.message).toMatch(/is away/);
      expect(one.cluster?.member(victimTag as string)?.state).toBe('lost');
      // Its URLs are refused; a new browser goes to the node that is left.
      await expect(
        chromium.connectOverCDP(through(session.cdp_ws_url, one), { timeout: 5_000 }),
      ).rejects.toThrow();
      const next = await jsonCaller(() => one.url)<BrowserSession>('POST', '/browsers', {});
      expect(nodeTagOf(next.json.session_id)).toBe(one.cluster?.tag);
      await jsonCaller(() => one.url)('DELETE', `/browsers/${next.json.session_id}`);
      // Its pool moved to the node that is left, which filled it again: whole, and leased there.
      await warmThrough(one, pool.json.id, 2, 20_000);
      expect(Date.now() - killedAt).toBeLessThan(20_000);
      expect(one.cluster?.ownerOf(pool.json.id)).toBe(one.cluster?.tag);
      const lease = await jsonCaller(() => one.url)<BrowserSession>(
        'POST',
        '/browser_pools/moves/acquire',
        {},
      );
      expect(lease.status).toBe(200);
      expect(nodeTagOf(lease.json.session_id)).toBe(one.cluster?.tag);
      // Started again on its data directory: nothing of the killed run is left, and it joins
      // again, a new epoch.
      victim = await startBinary(dataDir, env);
      const leftovers = processesOfServer(dataDir).filter((process) =>
        left.some((old) => old.pid === process.pid),
      );
      expect(leftovers).toEqual([]);
      await expect
        .poll(() => one.cluster?.member(victimTag as string)?.state, { timeout: 5_000 })
        .toBe('up');
      // Back, it runs its app again, asked through the other node.
      const again = await jsonCaller(() => one.url)<{ output: string }>('POST', '/invocations', {
        app_name: app.app,
        version: app.version,
        action_name: 'echo',
        payload: '"back"',
      });
      expect(again.status).toBe(200);
      expect(again.json.output).toBe('"back"');
      // The pool stays where it went: asked through the victim, the lease comes back there.
      const released = await jsonCaller(() => victim.url)(
        'POST',
        `/browser_pools/${pool.json.id}/release`,
        { session_id: lease.json.session_id },
      );
      expect(released.status).toBe(204);
      expect(one.org.defaultModel.pools.get('moves').acquired_count).toBe(0);
    } finally {
      // Stopped whole (its browsers' disks unmounted) before the test ends and kills what is left.
      // A victim still killed (the test failed before its restart) has exited by a signal: its
      // exit code stays null, and its exit is not waited for again.
      const stopped =
        victim.child.exitCode === null && victim.child.signalCode === null
          ? once(victim.child, 'exit')
          : undefined;
      victim.child.kill('SIGTERM');
      await stopped;
      await one.close();
    }
  }, 120_000);

  it('killed, then started again at a new address: it waits for its old lease, then joins', async () => {
    const url = postgres.database();
    const one = await startNode(url);
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-cluster-moved-'));
    const envAt = (port: number) => ({
      XB_DATABASE_URL: url,
      XB_SECRET_KEY_FILE: clusterKeyFile(url),
      XB_PORT: String(port),
      XB_NODE_URL: `http://127.0.0.1:${port}`,
      XB_TOKENS: TEST_TOKEN,
    });
    const first = await startBinary(dataDir, envAt(await freePort()));
    try {
      await seesUp(one, 2);
      const tag = one.cluster?.members().find((member) => member.url === first.url)?.id as string;
      const epoch = one.cluster?.member(tag)?.epoch as number;
      first.child.kill('SIGKILL');
      const moved = await startBinary(dataDir, envAt(await freePort()));
      await expect
        .poll(() => one.cluster?.member(tag), { timeout: 10_000 })
        .toMatchObject({ url: moved.url, state: 'up' });
      expect(one.cluster?.member(tag)?.epoch).toBeGreaterThan(epoch);
      moved.child.kill('SIGTERM');
    } finally {
      await one.close();
    }
  }, 60_000);

  it('cut off from PostgreSQL: found lost by the others, it ends its browsers once it hears so, and joins again', async () => {
    const url = postgres.database();
    const one = await startNode(url);
    const gate = await TcpGate.start(postgres.cluster.port);
    const cut = await startNode(url.replace(`:${postgres.cluster.port}/`, `:${gate.port}/`));
    try {
      await seesUp(one, 2);
      const tag = cut.cluster?.tag as string;
      const epoch = cut.cluster?.epoch as number;
      const created = await jsonCaller(() => cut.url)<BrowserSession>('POST', '/browsers', {});
      const id = created.json.session_id;
      expect(nodeTagOf(id)).toBe(tag);
      // A pool of 2 made on the cut node: one browser on each node (the other was less loaded).
      const pool = await jsonCaller(() => cut.url)<BrowserPool>('POST', '/browser_pools', {
        size: 2,
        fill_rate_per_minute: 100,
      });
      await expect.poll(() => cut.org.nodeBrowsers(), { timeout: 10_000 }).toBe(2);
      await expect
        .poll(() => one.org.defaultModel.browsers.entries().length, { timeout: 10_000 })
        .toBe(1);
      const [kept] = one.org.defaultModel.browsers.entries();
      gate.cut();
      await expect
        .poll(
          async () =>
            (await jsonCaller(() => one.url)<BrowserSession>('GET', `/browsers/${id}`)).json
              .end_reason,
          { timeout: 15_000, interval: 250 },
        )
        .toBe('node_lost');
      // The other node refuses its URLs; the cut node has not heard yet: its browser runs.
      expect(
        (await jsonCaller(() => one.url)('GET', `/browsers/${id}/process/x/status`)).status,
      ).toBe(404);
      expect(cut.org.nodeBrowsers()).toBe(2);
      // Its pool moved to the other node, which keeps the browser it ran there and starts the
      // other again; the cut node lets go of it once it hears so, and never starts its browsers
      // again.
      await warmThrough(one, pool.json.id, 2, 15_000);
      expect(one.org.defaultModel.browsers.peek(kept?.record.session_id as string)?.isWarm).toBe(
        true,
      );
      gate.mend();
      await expect.poll(() => cut.org.defaultModel.pools.list(), { timeout: 15_000 }).toEqual([]);
      await expect.poll(() => cut.org.nodeBrowsers(), { timeout: 15_000 }).toBe(0);
      await expect.poll(() => one.cluster?.member(tag)?.state, { timeout: 10_000 }).toBe('up');
      expect(one.org.defaultModel.pools.get(pool.json.id).available_count).toBe(2);
      expect(cut.cluster?.epoch).toBeGreaterThan(epoch);
    } finally {
      // A failed check leaves the store reachable, so the nodes stop in time.
      gate.mend();
      await cut.close();
      await one.close();
      await gate.close();
    }
  }, 120_000);
});

describe('a pool left on a lost node', () => {
  it('goes to a node that is up, whoever lost track of it', async () => {
    const url = postgres.database();
    const one = await startNode(url);
    const two = await startNode(url);
    const sql = new pg.Pool({ connectionString: url });
    try {
      await seesUp(one, 2);
      const pool = await jsonCaller(() => two.url)<BrowserPool>('POST', '/browser_pools', {
        size: 1,
      });
      expect(nodeTagOf(pool.json.id)).toBe(two.cluster?.tag);
      // As if its node had left and handed it to another that then left too: a lost node
      // nobody will sweep again holds it.
      await sql.query(
        `INSERT INTO xb_nodes (id, url, epoch, state, capacity, lease_until, is_swept)
         VALUES ('Gone', 'http://127.0.0.1:9', 3, 'lost', 4, now(), true)`,
      );
      await sql.query("INSERT INTO xb_pool_homes (pool_id, node) VALUES ($1, 'Gone')", [
        pool.json.id,
      ]);
      await sql.query("SELECT pg_notify('xb_pool_homes', '')");
      await expect.poll(() => one.cluster?.ownerOf(pool.json.id), { timeout: 5_000 }).toBe('Gone');
      // Its node lets go of it at once; the first node up finds it orphaned and moves it.
      await expect
        .poll(() => one.cluster?.ownerOf(pool.json.id), { timeout: 10_000 })
        .toMatch(new RegExp(`^(${one.cluster?.tag}|${two.cluster?.tag})$`));
      await warmThrough(one, pool.json.id, 1, 15_000);
      const holder = one.cluster?.ownerOf(pool.json.id) === one.cluster?.tag ? one : two;
      expect(holder.org.defaultModel.pools.list().map((each) => each.id)).toEqual([pool.json.id]);
      expect(
        (holder === one ? two : one).org.defaultModel.pools.list().map((each) => each.id),
      ).toEqual([]);
    } finally {
      await sql.end();
      await one.close();
      await two.close();
    }
  }, 60_000);
});

describe('PostgreSQL restarted under load', () => {
  it('loses no session and finds no node lost; calls that need the store answer again', async () => {
    const url = postgres.database();
    const one = await startNode(url);
    const two = await startNode(url);
    try {
      await seesUp(one, 2);
      const epochs = [one.cluster?.epoch, two.cluster?.epoch];
      const created = await jsonCaller(() => one.url)<BrowserSession>('POST', '/browsers', {});
      const session = created.json;
      const owner = nodeTagOf(session.session_id) === one.cluster?.tag ? one : two;
      const other = owner === one ? two : one;
      const browser = await chromium.connectOverCDP(through(session.cdp_ws_url, other));
      try {
        const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
        await page.goto(siteUrl);
        // Load while the database restarts: reads through both nodes, and DevTools.
        let isRestarting = true;
        const load = (async () => {
          let calls = 0;
          while (isRestarting) {
            await jsonCaller(() => (calls % 2 ? one.url : two.url))(
              'GET',
              `/browsers/${session.session_id}`,
            );
            expect(await page.evaluate(() => 1 + 1)).toBe(2);
            calls++;
          }
          return calls;
        })();
        await postgres.cluster.halt();
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        await postgres.cluster.resume();
        // A create answers again within seconds of the database.
        await expect
          .poll(
            async () => (await jsonCaller(() => two.url)('GET', '/browsers?status=deleted')).status,
            { timeout: 10_000, interval: 250 },
          )
          .toBe(200);
        // Longer than a lease after it is back: a sweep would have found a node lost by now.
        await new Promise((resolve) => setTimeout(resolve, 9_000));
        isRestarting = false;
        expect(await load).toBeGreaterThan(10);
        expect(await page.evaluate(() => document.title)).toBe('cluster');
      } finally {
        await browser.close();
      }
      const read = await jsonCaller(() => other.url)<BrowserSession>(
        'GET',
        `/browsers/${session.session_id}`,
      );
      expect(read.json.deleted_at).toBeUndefined();
      expect(one.cluster?.members().map((member) => member.state)).toEqual(['up', 'up']);
      expect([one.cluster?.epoch, two.cluster?.epoch]).toEqual(epochs);
    } finally {
      await one.close();
      await two.close();
    }
  }, 120_000);
});

describe('a node drained for a deploy', () => {
  it('takes no new browsers, waits for its sessions in use, then stops; its pools go to the others', async () => {
    const url = postgres.database();
    const stays = await startNode(url);
    const leaves = await startNode(url, { XB_DRAIN_SECONDS: '60' });
    try {
      await seesUp(stays, 2);
      const created = await jsonCaller(() => leaves.url)<BrowserSession>('POST', '/browsers', {});
      const id = created.json.session_id;
      expect(nodeTagOf(id)).toBe(leaves.cluster?.tag);
      const pool = await jsonCaller(() => leaves.url)<BrowserPool>('POST', '/browser_pools', {
        size: 1,
      });
      expect(nodeTagOf(pool.json.id)).toBe(leaves.cluster?.tag);
      const startedAt = Date.now();
      const closed = leaves.close();
      await expect
        .poll(() => stays.cluster?.member(leaves.cluster?.tag as string)?.state, {
          timeout: 5_000,
        })
        .toBe('draining');
      // A create through the draining node goes to the other; its session runs on.
      const placed = await jsonCaller(() => leaves.url)<BrowserSession>('POST', '/browsers', {});
      expect(placed.status).toBe(201);
      expect(nodeTagOf(placed.json.session_id)).toBe(stays.cluster?.tag);
      const read = await jsonCaller(() => stays.url)<BrowserSession>('GET', `/browsers/${id}`);
      expect(read.json.deleted_at).toBeUndefined();
      // Its last session ends: the stop goes on long before the deadline.
      expect((await jsonCaller(() => stays.url)('DELETE', `/browsers/${id}`)).status).toBe(204);
      await closed;
      expect(Date.now() - startedAt).toBeLessThan(30_000);
      // Its pool went to the node that stays, which fills it.
      await warmThrough(stays, pool.json.id, 1, 10_000);
      expect(stays.cluster?.ownerOf(pool.json.id)).toBe(stays.cluster?.tag);
      expect(
        stays.cluster?.members().find((member) => member.id === leaves.cluster?.tag),
      ).toBeDefined();
      await jsonCaller(() => stays.url)('DELETE', `/browsers/${placed.json.session_id}`);
    } finally {
      await leaves.close();
      await stays.close();
    }
  }, 120_000);

  it('is drained by an admin call through another node, which answers once its session ends', async () => {
    const url = postgres.database();
    const stays = await startNode(url);
    const drained = await startNode(url);
    try {
      await seesUp(stays, 2);
      await seesUp(drained, 2);
      const tag = drained.cluster?.tag as string;
      const viaStays = jsonCaller(() => stays.url);
      const listed = await viaStays<ServiceNode[]>('GET', '/org/nodes');
      expect(listed.json.map((node) => [node.id, node.state, node.is_self]).sort()).toEqual(
        [
          [stays.cluster?.tag, 'up', true],
          [tag, 'up', false],
        ].sort(),
      );
      const created = await jsonCaller(() => drained.url)<BrowserSession>('POST', '/browsers', {});
      const id = created.json.session_id;
      expect(nodeTagOf(id)).toBe(tag);
      // A pool the drained node holds, one warm browser on each node.
      const pool = await jsonCaller(() => drained.url)<BrowserPool>('POST', '/browser_pools', {
        size: 2,
        fill_rate_per_minute: 100,
      });
      expect(nodeTagOf(pool.json.id)).toBe(tag);
      await warmThrough(stays, pool.json.id, 2, 30_000);
      const warmOn = (node: RunningServer) =>
        node.model.browsers.entries().filter((entry) => entry.isWarm).length;
      expect([warmOn(stays), warmOn(drained)]).toEqual([1, 1]);
      // Passed to the node it names, which waits for its session in use to end.
      const startedAt = Date.now();
      const answer = viaStays<DrainedNode>('POST', `/org/nodes/${tag}/drain`, {
        wait_seconds: 60,
      });
      await expect
        .poll(() => stays.cluster?.member(tag)?.state, { timeout: 5_000 })
        .toBe('draining');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await viaStays('DELETE', `/browsers/${id}`)).status).toBe(204);
      const { status, json } = await answer;
      expect(status).toBe(200);
      expect(json).toMatchObject({ node: { id: tag, state: 'draining', is_self: true } });
      expect(json.browsers_in_use).toBe(0);
      expect(Date.now() - startedAt).toBeLessThan(30_000);
      // Its pool goes on: its warm browser there ended (the other is started on the other node
      // at the pool's fill rate, here in 30 s), and an acquire through it is served from there.
      expect(warmOn(drained)).toBe(0);
      const leased = await jsonCaller(() => drained.url)<BrowserSession>(
        'POST',
        `/browser_pools/${pool.json.id}/acquire`,
        {},
      );
      expect(leased.status).toBe(200);
      expect(nodeTagOf(leased.json.session_id)).toBe(stays.cluster?.tag);
      // It takes no new browser: a create it receives runs on the other node.
      const placed = await jsonCaller(() => drained.url)<BrowserSession>('POST', '/browsers', {});
      expect(placed.status).toBe(201);
      expect(nodeTagOf(placed.json.session_id)).toBe(stays.cluster?.tag);
      expect((await viaStays('POST', '/org/nodes/zzzz/drain', {})).status).toBe(404);
      await viaStays('DELETE', `/browsers/${placed.json.session_id}`);
      await viaStays('DELETE', `/browser_pools/${pool.json.id}`);
    } finally {
      await drained.close();
      await stays.close();
    }
  }, 120_000);
});
