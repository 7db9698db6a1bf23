import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContractContext, contractChecks, deployContractApp, runContractCheck } from '@x/testing';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkTag } from './network/host-names.js';
import { type RunningServer, startServer } from './server.js';
import { findSystemTools } from './system/executables.js';
import { testConfig } from './test-support/servers.js';

const TOKEN = 'server-test-token';
const READ_ONLY = 'server-test-read-only';
// What the server found wrong, in the run's output: none in a clean run, the reason when not.
const quiet = pino({ level: 'error' });

function configIn(dataDir: string) {
  return testConfig({
    XB_ALLOW_NETWORKS: '127.0.0.1/32',
    XB_DATA_DIR: dataDir,
    XB_PORT: '0',
    XB_TOKENS: TOKEN,
    XB_READ_ONLY_TOKENS: READ_ONLY,
    XB_MAX_BROWSERS: '4',
    // The contract holds with a spare browser handed to each plain create, as servers run.
    XB_SPARE_BROWSERS: '1',
  });
}

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'xb-server-'));
  server = await startServer(configIn(dataDir), quiet);
});
afterAll(() => server?.close());

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });

describe('the contract suite against the server', () => {
  // Every check of the contract suite: a divergence from the fake is a bug in one of them.
  for (const check of contractChecks) {
    it(`${check.area}: ${check.name}`, () =>
      runContractCheck(check, { baseUrl: server.url, token: TOKEN, readOnlyToken: READ_ONLY }));
  }
});

describe('the CDP proxy', () => {
  it('lets Playwright connectOverCDP drive the browser the API types into', async () => {
    const session = (await (await call('/browsers', { method: 'POST', body: '{}' })).json()) as {
      session_id: string;
      cdp_ws_url: string;
    };
    const browser = await chromium.connectOverCDP(session.cdp_ws_url);
    try {
      const page = browser.contexts()[0]?.pages()[0];
      expect(page).toBeDefined();
      await page?.setContent(`<textarea id="box" autofocus></textarea><script>
        window.seen = [];
        for (const type of ['keydown', 'keyup']) box.addEventListener(type, (event) => window.seen.push(type + ':' + event.key));
      </script>`);
      await page?.focus('#box');
      const text = 'ASCII àccénts 漢字 🙂\nnext';
      const typed = await call(`/browsers/${session.session_id}/computer/type`, {
        method: 'POST',
        body: JSON.stringify({ text }),
      });
      expect(typed.status).toBe(204);
      expect(await page?.inputValue('#box')).toBe(text);
      const seen = (await page?.evaluate('window.seen')) as string[];
      expect(seen).toContain('keydown:漢');
      expect(seen).toContain('keyup:🙂');
      expect(seen).toContain('keydown:Enter');
      expect(seen.filter((entry) => entry.startsWith('keydown:'))).toHaveLength([...text].length);
    } finally {
      await browser.close();
      await call(`/browsers/${session.session_id}`, { method: 'DELETE' });
    }
  });

  it('refuses a wrong jwt and another session’s jwt', async () => {
    const created = await Promise.all(
      [1, 2].map(
        async () =>
          (await (await call('/browsers', { method: 'POST', body: '{}' })).json()) as {
            session_id: string;
            cdp_ws_url: string;
          },
      ),
    );
    const [first, second] = created as [
      { session_id: string; cdp_ws_url: string },
      { session_id: string; cdp_ws_url: string },
    ];
    try {
      const tampered = first.cdp_ws_url.replace(/jwt=.*$/, 'jwt=eyJhbGciOiJIUzI1NiJ9.e30.bad');
      await expect(chromium.connectOverCDP(tampered, { timeout: 5_000 })).rejects.toThrow(/401/);
      const borrowed = first.cdp_ws_url.replace(
        /jwt=.*$/,
        new URL(second.cdp_ws_url).search.slice(1),
      );
      await expect(chromium.connectOverCDP(borrowed, { timeout: 5_000 })).rejects.toThrow(/401/);
    } finally {
      for (const session of created)
        await call(`/browsers/${session.session_id}`, { method: 'DELETE' });
    }
  });
});

describe('a restart', () => {
  it('keeps deployments, invocations and idempotency keys, and marks the browsers of the earlier run deleted', async () => {
    const restartDir = mkdtempSync(join(tmpdir(), 'xb-restart-'));
    const first = await startServer(configIn(restartDir), quiet);
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const context = new ContractContext({
      baseUrl: first.url,
      token: TOKEN,
      readOnlyToken: READ_ONLY,
      timeoutMs: 30_000,
    });
    const app = await deployContractApp(context);
    const invoke = (url: string, action: string, key?: string) =>
      fetch(`${url}/invocations`, {
        method: 'POST',
        headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
        body: JSON.stringify({
          app_name: app.app,
          version: app.version,
          action_name: action,
          async: true,
        }),
      }).then((answer) => answer.json() as Promise<{ id: string; status: string }>);
    const invocation = await invoke(first.url, 'contract', 'restart-key');
    const session = (await (
      await fetch(`${first.url}/browsers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ invocation_id: invocation.id }),
      })
    ).json()) as { session_id: string };
    await first.close();
    const second = await startServer(configIn(restartDir), quiet);
    try {
      // Its code stopped with the server: it ended, saying so.
      expect(
        (await (await fetch(`${second.url}/invocations/${invocation.id}`, { headers })).json()) as {
          id: string;
        },
      ).toMatchObject({
        id: invocation.id,
        status: 'failed',
        status_reason: 'The server shut down.',
      });
      // The key is kept in the store: a retry after the restart gets the first answer.
      expect((await invoke(second.url, 'contract', 'restart-key')).id).toBe(invocation.id);
      const browser = (await (
        await fetch(`${second.url}/browsers/${session.session_id}`, { headers })
      ).json()) as { deleted_at?: string };
      expect(browser.deleted_at).toBeDefined();
      expect(
        await (
          await fetch(`${second.url}/invocations/${invocation.id}/browsers`, { headers })
        ).json(),
      ).toEqual({ browsers: [] });
      // The deployment runs on: its installed code answers the next invocation.
      const echoed = await fetch(`${second.url}/invocations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          app_name: app.app,
          version: app.version,
          action_name: 'echo',
          payload: '"again"',
        }),
      });
      expect(await echoed.json()).toMatchObject({ status: 'succeeded', output: '"again"' });
      await fetch(`${second.url}/deployments/${app.deployment}`, { method: 'DELETE', headers });
    } finally {
      await second.close();
    }
  });
});

describe('a start that fails half-way', () => {
  it('gives back what its earlier stages took: the data directory, its network table', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const failedDir = mkdtempSync(join(tmpdir(), 'xb-failed-start-'));
    try {
      // Everything is made before the API listens: the port taken fails the fifth stage.
      await expect(startServer({ ...configIn(failedDir), port }, quiet)).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
      const { nft } = findSystemTools();
      if (process.getuid?.() === 0 && nft) {
        const table = spawnSync(nft, ['list', 'table', 'inet', `xb_${networkTag(failedDir)}`]);
        expect(table.status, "the sessions' table of the failed start").not.toBe(0);
      }
      // The data directory is free again: the next start takes it.
      const again = await startServer(configIn(failedDir), quiet);
      await again.close();
    } finally {
      blocker.close();
    }
  });
});
