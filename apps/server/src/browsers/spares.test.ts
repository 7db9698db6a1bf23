import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../test-support/processes.js';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const test = useTestServer({ XB_SPARE_BROWSERS: '1', XB_MAX_BROWSERS: '3' });
const call = jsonCaller(() => test.server.url);

const site = createServer((_request, response) =>
  response.writeHead(200, { 'content-type': 'text/html' }).end('<title>spare</title><p>here</p>'),
);
let siteUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
afterAll(() => site.close());

type Session = { session_id: string; cdp_ws_url: string };

const spares = () => {
  const found = test.server.spares;
  if (!found) throw new Error('the server keeps no spares');
  return found;
};
const startedAs = (id: string) => test.server.model.browsers.live(id).instance.startedAs;
/** A plain create and its delete: the spares then stand for the default configuration. */
const askForPlain = async () => {
  const { session_id } = (await call<Session>('POST', '/browsers', {})).json;
  await call('DELETE', `/browsers/${session_id}`);
  await spares().settled();
};
/** The Chromium pids of the spares that have started. */
const sparePids = () =>
  spares()
    .ready()
    .map((spare) => spare.chromium.process.pid as number);

describe('spare browsers', () => {
  it('hand the next plain create a browser started ahead, which works and ends as any other', async () => {
    const first = (await call<Session>('POST', '/browsers', {})).json;
    expect(startedAs(first.session_id)).toBe(first.session_id);
    await spares().settled();
    expect(spares().size).toBe(1);

    const second = (await call<Session>('POST', '/browsers', {})).json;
    const instance = test.server.model.browsers.live(second.session_id).instance;
    expect(instance.startedAs).toMatch(/^spare_/);
    // Its own user, home and cgroup, as every browser's.
    const home = test.server.instance(second.session_id).home;
    expect(home).not.toBe(test.server.instance(first.session_id).home);
    const browser = await chromium.connectOverCDP(second.cdp_ws_url);
    const page = browser.contexts()[0]?.pages()[0];
    await page?.goto(siteUrl);
    expect(await page?.title()).toBe('spare');
    await browser.close();
    const shot = await fetch(
      `${test.server.url}/browsers/${second.session_id}/computer/screenshot`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
      },
    );
    expect(shot.status).toBe(200);
    const pid = instance.chromium.process.pid as number;
    await call('DELETE', `/browsers/${second.session_id}`);
    expect(isAlive(pid)).toBe(false);
    expect(test.server.cgroups?.membersOf(instance.startedAs) ?? []).toEqual([]);
    await call('DELETE', `/browsers/${first.session_id}`);
    await spares().settled();
  });

  it('follow the configuration asked for, and give their room to a browser that cannot take one', async () => {
    await spares().settled();
    expect(spares().size).toBe(1);
    // Another window size: its own start, and the spare is now of that size.
    const wide = (
      await call<Session>('POST', '/browsers', { viewport: { width: 1280, height: 720 } })
    ).json;
    expect(startedAs(wide.session_id)).toBe(wide.session_id);
    await spares().settled();
    const narrow = (
      await call<Session>('POST', '/browsers', { viewport: { width: 1280, height: 720 } })
    ).json;
    expect(startedAs(narrow.session_id)).toMatch(/^spare_/);
    // Two browsers run and one more is allowed: that room is the spare's.
    await spares().settled();
    expect(spares().size).toBe(1);
    // A browser that cannot take it (a different size) gets the room: the spare closes first.
    const third = (
      await call<Session>('POST', '/browsers', { viewport: { width: 1024, height: 768 } })
    ).json;
    expect(startedAs(third.session_id)).toBe(third.session_id);
    expect(spares().size).toBe(0);
    const over = await fetch(`${test.server.url}/browsers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(over.status).toBe(429);
    for (const session of [wide, narrow, third])
      await call('DELETE', `/browsers/${session.session_id}`);
  });

  it('drop a spare that ended by itself: the next create starts its own', async () => {
    await askForPlain();
    expect(spares().size).toBe(1);
    const pids = sparePids();
    expect(pids).toHaveLength(1);
    const name = spares().ready()[0]?.startedAs as string;
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    // It is closed all the same: its cgroup (and with it its sandbox, disk and user) goes.
    const cgroups = test.server.cgroups;
    for (let attempt = 0; attempt < 250 && (spares().size > 0 || cgroups?.has(name)); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(spares().size).toBe(0);
    expect(cgroups?.has(name) ?? false).toBe(false);
    const next = (await call<Session>('POST', '/browsers', {})).json;
    expect(startedAs(next.session_id)).toBe(next.session_id);
    await call('DELETE', `/browsers/${next.session_id}`);
  });

  it("leave pools' browsers to the pools: a pool's start neither takes a spare nor calls one up", async () => {
    await askForPlain();
    const waiting = spares().ready()[0]?.startedAs;
    expect(waiting).toMatch(/^spare_/);
    await call('POST', '/browser_pools', { name: 'warm', size: 1 });
    let warm: string[] = [];
    for (let attempt = 0; attempt < 500 && warm.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      warm = test.server.model.pools.entries().flatMap((pool) => [...pool.idle]);
    }
    expect(warm).toHaveLength(1);
    expect(startedAs(warm[0] as string)).toBe(warm[0]);
    expect(
      spares()
        .ready()
        .map((spare) => spare.startedAs),
    ).toEqual([waiting]);
    await call('DELETE', '/browser_pools/warm?force=true');
  });

  it('close with the server: no spare outlives it', async () => {
    await askForPlain();
    const pids = sparePids();
    expect(pids).toHaveLength(1);
    await test.server.close();
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
