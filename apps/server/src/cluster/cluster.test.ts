import { createHash } from 'node:crypto';
import { nodeTagOf } from '@x/service-kernel';
import { ContractContext, deployContractApp } from '@x/testing';
import type { BrowserPool, BrowserSession } from '@x/types';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../server.js';
import {
  seesUp,
  startNode,
  through,
  useClusterSite,
  warmThrough,
} from '../test-support/cluster-nodes.js';
import { jsonCaller, TEST_TOKEN } from '../test-support/servers.js';
import { useTestCluster } from '../test-support/test-cluster.js';
import { HOP_HEADER } from './hop-signing.js';
import { ClusterPoolPeers } from './pool-peers.js';

const postgres = useTestCluster();
const MiB = 1024 * 1024;
const siteUrlOf = useClusterSite();

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
      await page.goto(siteUrlOf());
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
