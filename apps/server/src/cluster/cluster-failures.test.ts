import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { nodeTagOf } from '@x/service-kernel';
import { ContractContext, deployContractApp } from '@x/testing';
import type { BrowserPool, BrowserSession, DrainedNode, ServiceNode } from '@x/types';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../server.js';
import { startBinary } from '../test-support/binary.js';
import {
  seesUp,
  startNode,
  through,
  useClusterSite,
  warmThrough,
} from '../test-support/cluster-nodes.js';
import { freePort } from '../test-support/postgres-cluster.js';
import { processesOfServer } from '../test-support/processes.js';
import { jsonCaller, TEST_TOKEN } from '../test-support/servers.js';
import { TcpGate } from '../test-support/tcp-gate.js';
import { clusterKeyFile, useTestCluster } from '../test-support/test-cluster.js';

const postgres = useTestCluster();
const _MiB = 1024 * 1024;
const siteUrlOf = useClusterSite();

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
        await page.goto(siteUrlOf());
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
