import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildExtensionArchive } from '@x/testing';
import type { BrowserPool, BrowserSession, Profile, Replay } from '@x/types';
import { zipSync } from 'fflate';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../config.js';
import { type RunningServer, startServer } from '../server.js';
import { jsonCaller, TEST_ALLOW_NETWORKS, TEST_TOKEN } from '../test-support/servers.js';
import { clusterKeyFile, useTestCluster } from '../test-support/test-cluster.js';

const test = useTestCluster();

/** A server on a fresh data directory, its records where `store` says. */
async function serverOn(store: 'sqlite' | { url: string }, env: Record<string, string> = {}) {
  const server = await startServer(
    readConfig({
      XB_ALLOW_NETWORKS: TEST_ALLOW_NETWORKS,
      XB_DATA_DIR: mkdtempSync(join(tmpdir(), 'xb-store-server-')),
      XB_PORT: '0',
      XB_TOKENS: TEST_TOKEN,
      // The servers of one database share its sealing key, as a cluster's nodes do.
      ...(store === 'sqlite'
        ? {}
        : { XB_DATABASE_URL: store.url, XB_SECRET_KEY_FILE: clusterKeyFile(store.url) }),
      ...env,
    }),
    pino({ level: 'silent' }),
  );
  return server;
}

/** Reads an event stream until `count` data lines came, or it ends. */
async function readEvents(response: Response, count: number): Promise<string[]> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no stream');
  const lines: string[] = [];
  let text = '';
  while (lines.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    const parts = text.split('\n');
    text = parts.pop() ?? '';
    for (const line of parts) if (line.startsWith('data:')) lines.push(line);
  }
  await reader.cancel().catch(() => undefined);
  return lines;
}

describe('a server on PostgreSQL', () => {
  it('keeps its records across a restart of the server, and PostgreSQL never in a log or /readyz', async () => {
    const url = test.database();
    const first = await serverOn({ url });
    const call = jsonCaller(() => first.url);
    expect((await call<Profile>('POST', '/profiles', { name: 'login' })).status).toBe(201);
    // A deployment whose archive lacks its entrypoint: a record that ends failed.
    const form = new FormData();
    form.set('file', new Blob([zipSync({ 'main.js': new Uint8Array() })]), 'app.zip');
    form.set('entrypoint_rel_path', 'app.js');
    const deployed = await fetch(`${first.url}/deployments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
      body: form,
    });
    expect(deployed.status).toBe(201);
    const deployment = (await deployed.json()) as { id: string };
    expect((await call('POST', '/profiles', { name: 'login' })).status).toBe(409);
    const ready = await fetch(`${first.url}/readyz`);
    expect(ready.status).toBe(200);
    await first.close();
    const second = await serverOn({ url });
    try {
      const again = jsonCaller(() => second.url);
      expect((await again<Profile>('GET', '/profiles/login')).json).toMatchObject({
        name: 'login',
      });
      expect((await again('GET', `/deployments/${deployment.id}`)).json).toMatchObject({
        status: 'failed',
      });
    } finally {
      await second.close();
    }
  });

  it('answers 503 with Retry-After while PostgreSQL restarts, keeps driving the browser and its stream, and carries on', async () => {
    const url = test.database();
    const server = await serverOn({ url });
    const call = jsonCaller(() => server.url);
    try {
      const { json: browser } = await call<BrowserSession>('POST', '/browsers', {});
      const id = browser.session_id;
      const { json: spawned } = await call<{ process_id: string }>(
        'POST',
        `/browsers/${id}/process/spawn`,
        { command: 'sh', args: ['-c', 'while true; do echo tick; sleep 0.1; done'] },
      );
      const stream = await fetch(
        `${server.url}/browsers/${id}/process/${spawned.process_id}/stdout/stream`,
        { headers: { authorization: `Bearer ${TEST_TOKEN}` } },
      );
      expect(stream.status).toBe(200);
      const events = readEvents(stream, 30);
      // Load all through the restart: creates and reads of records, four at a time.
      const seen: { status: number; retryAfter: string | null }[] = [];
      let isLoading = true;
      const loader = async (worker: number) => {
        for (let round = 0; isLoading; round++) {
          const response = await fetch(`${server.url}/profiles`, {
            method: round % 2 === 0 ? 'POST' : 'GET',
            headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
            ...(round % 2 === 0
              ? { body: JSON.stringify({ name: `load-${worker}-${round}` }) }
              : {}),
          });
          await response.arrayBuffer();
          seen.push({ status: response.status, retryAfter: response.headers.get('retry-after') });
        }
      };
      const load = Promise.all([0, 1, 2, 3].map(loader));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await test.cluster.halt();
      try {
        // Writes and reads of records: the documented 503, never another 5xx.
        for (const [method, path, body] of [
          ['POST', '/profiles', { name: 'during' }],
          ['GET', '/profiles', undefined],
          ['POST', '/invocations', { app_name: 'a', action_name: 'b', version: '1' }],
        ] as const) {
          const response = await fetch(`${server.url}${path}`, {
            method,
            headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          const text = await response.text();
          expect(response.status, `${method} ${path}: ${text}`).toBe(503);
          expect(response.headers.get('retry-after')).toBe('2');
          expect(text).not.toContain('postgres://');
        }
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(await ready.text()).toMatch(/store \(PostgreSQL\) does not answer/);
        // The live browser is driven as before: nothing of it is in the store.
        const shot = await fetch(`${server.url}/browsers/${id}/computer/screenshot`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
          body: '{}',
        });
        expect(shot.status).toBe(200);
      } finally {
        await test.cluster.resume();
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      isLoading = false;
      await load;
      // Under load: answers before, 503 with Retry-After while it was away, answers again after.
      expect(seen.filter(({ status }) => ![200, 201, 503].includes(status))).toEqual([]);
      expect(seen.filter(({ status }) => status === 503).length).toBeGreaterThan(0);
      expect(seen.filter(({ status, retryAfter }) => status === 503 && retryAfter !== '2')).toEqual(
        [],
      );
      expect(seen.at(-1)?.status).not.toBe(503);
      // The stream went on through the restart.
      expect((await events).length).toBe(30);
      expect((await call('POST', '/profiles', { name: 'after' })).status).toBe(201);
      expect((await call<BrowserSession>('GET', `/browsers/${id}`)).json.session_id).toBe(id);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect((await call('DELETE', `/browsers/${id}`)).status).toBe(204);
    } finally {
      await server.close();
    }
  });

  it('keeps the files its records name in the store: another server on the same database serves them', async () => {
    const url = test.database();
    const bytes = async (server: RunningServer, path: string) => {
      const response = await fetch(`${server.url}${path}`, {
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
      });
      expect(response.status, path).toBe(200);
      return new Uint8Array(await response.arrayBuffer());
    };
    const first = await serverOn({ url });
    const call = jsonCaller(() => first.url);
    let paths: { extension: string; profile: string; replay: string };
    const kept: Record<string, Uint8Array> = {};
    try {
      const form = new FormData();
      form.set('file', new Blob([buildExtensionArchive() as Uint8Array<ArrayBuffer>]), 'x.zip');
      form.set('name', 'fixture');
      const uploaded = await fetch(`${first.url}/extensions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
        body: form,
      });
      expect(uploaded.status).toBe(201);
      expect((await call('POST', '/profiles', { name: 'kept' })).status).toBe(201);
      const { json: browser } = await call<BrowserSession>('POST', '/browsers', {
        profile: { name: 'kept', save_changes: true },
      });
      const id = browser.session_id;
      const { json: replay } = await call<Replay>('POST', `/browsers/${id}/replays`, {});
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await call('POST', `/browsers/${id}/replays/${replay.replay_id}/stop`)).status).toBe(
        200,
      );
      // Deleting the browser saves its state into the profile.
      expect((await call('DELETE', `/browsers/${id}`)).status).toBe(204);
      paths = {
        extension: '/extensions/fixture',
        profile: '/profiles/kept/download?format=tar',
        replay: `/browsers/${id}/replays/${replay.replay_id}`,
      };
      for (const [name, path] of Object.entries(paths)) kept[name] = await bytes(first, path);
      expect(kept.profile?.byteLength).toBeGreaterThan(1024);
    } finally {
      await first.close();
    }
    // A server on another data directory: nothing of the first's disk, the same database.
    const second = await serverOn({ url });
    try {
      for (const [name, path] of Object.entries(paths))
        expect(
          Buffer.from(await bytes(second, path)).equals(Buffer.from(kept[name] ?? [])),
          name,
        ).toBe(true);
      // A browser that names the extension and the profile starts here from the store's copies.
      const started = await jsonCaller(() => second.url)<BrowserSession>('POST', '/browsers', {
        extensions: [{ name: 'fixture' }],
        profile: { name: 'kept' },
      });
      expect(started.status).toBe(201);
      await jsonCaller(() => second.url)('DELETE', `/browsers/${started.json.session_id}`);
    } finally {
      await second.close();
    }
  });

  it('will not start when PostgreSQL cannot be reached, saying so without the URL', async () => {
    const secret = 'postgres://xb:hunter2@127.0.0.1:1/nowhere';
    const error = await serverOn({ url: secret }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/PostgreSQL at XB_DATABASE_URL cannot be reached/);
    expect((error as Error).message).not.toContain('hunter2');
  });
});

/**
 * 200 calls at once (creates, deletes, acquires, releases and creates racing for names) leave
 * the store consistent: no browser leased twice, one record per name, the open browser records
 * the live browsers, the pool whole again.
 */
async function storm(server: RunningServer, openRecords: () => Promise<number>) {
  const call = jsonCaller(() => server.url);
  expect(
    (await call('POST', '/browser_pools', { name: 'storm', size: 2, fill_rate_per_minute: 100 }))
      .status,
  ).toBe(201);
  const leased = new Set<string>();
  const statuses: number[] = [];
  const op = async (index: number) => {
    switch (index % 4) {
      case 0: {
        const created = await call<BrowserSession>('POST', '/browsers', {});
        statuses.push(created.status);
        if (created.status === 201)
          statuses.push((await call('DELETE', `/browsers/${created.json.session_id}`)).status);
        return;
      }
      case 3: {
        statuses.push((await call('POST', '/profiles', { name: `p${index % 10}` })).status);
        return;
      }
      default: {
        const acquired = await call<BrowserSession>('POST', '/browser_pools/storm/acquire', {
          acquire_timeout_seconds: 2,
        });
        statuses.push(acquired.status);
        if (acquired.status !== 200) return;
        const id = acquired.json.session_id;
        expect(leased.has(id), `browser ${id} leased twice`).toBe(false);
        leased.add(id);
        await new Promise((resolve) => setTimeout(resolve, 10));
        leased.delete(id);
        statuses.push(
          (await call('POST', '/browser_pools/storm/release', { session_id: id })).status,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: 200 }, (_, index) => op(index)));
  expect(statuses.filter((status) => status >= 500)).toEqual([]);
  expect(new Set(statuses)).toEqual(
    new Set(statuses.filter((status) => [200, 201, 204, 409, 429].includes(status))),
  );
  // One profile per name, however many raced for it.
  const { json: profiles } = await call<Profile[]>('GET', '/profiles?limit=100');
  expect(profiles.map((profile) => profile.name).sort()).toEqual(
    ['p3', 'p7', 'p1', 'p5', 'p9'].sort(),
  );
  // The pool is whole again, and the store's open browsers are the live ones.
  for (let attempt = 0; attempt < 300; attempt++) {
    const { json: pool } = await call<BrowserPool>('GET', '/browser_pools/storm');
    const { json: active } = await call<BrowserSession[]>(
      'GET',
      '/browsers?status=active&limit=100',
    );
    if (
      pool.available_count === 2 &&
      pool.acquired_count === 0 &&
      active.length === 2 &&
      (await openRecords()) === 2
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the store did not settle to the pool and its live browsers');
}

describe('200 concurrent creates, acquires, releases and deletes', () => {
  it('leave the SQLite store consistent', async () => {
    const server = await serverOn('sqlite', { XB_MAX_BROWSERS: '5' });
    try {
      await storm(server, async () => {
        const { json } = await jsonCaller(() => server.url)<BrowserSession[]>(
          'GET',
          '/browsers?status=deleted&limit=100',
        );
        const { json: all } = await jsonCaller(() => server.url)<BrowserSession[]>(
          'GET',
          '/browsers?status=all&limit=100',
        );
        return all.length - json.length;
      });
    } finally {
      await server.close();
    }
  }, 180_000);

  it('leave the PostgreSQL store consistent', async () => {
    const url = test.database();
    const server = await serverOn({ url }, { XB_MAX_BROWSERS: '5' });
    const pool = new pg.Pool({ connectionString: url });
    try {
      await storm(server, async () => {
        const { rows } = await pool.query(
          "SELECT count(*)::int AS n FROM xb_records WHERE kind = 'browsers' AND is_open",
        );
        return rows[0].n as number;
      });
    } finally {
      await pool.end();
      await server.close();
    }
  }, 180_000);
});
