import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserPool, BrowserSession } from '@x/types';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startServer } from '../server.js';
import { processesOfServer } from '../test-support/processes.js';
import { jsonCaller, TEST_TOKEN, testConfig, useTestServer } from '../test-support/servers.js';

const test = useTestServer({ XB_MAX_BROWSERS: '6' });

const call = jsonCaller(() => test.server.url);

async function waitForAvailable(name: string, count: number): Promise<BrowserPool> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { json } = await call<BrowserPool>('GET', `/browser_pools/${name}`);
    if (json.available_count === count) return json;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`pool ${name} never had ${count} available`);
}

describe('pools on the server', () => {
  it('hand no browser to two holders under concurrent acquire and release, with true counts', async () => {
    await call('POST', '/browser_pools', { name: 'busy', size: 3, fill_rate_per_minute: 100 });
    await waitForAvailable('busy', 3);
    const holders = new Map<string, number>();
    let maxHeld = 0;
    const worker = async (index: number) => {
      for (let round = 0; round < 3; round++) {
        const { status, json } = await call<BrowserSession>('POST', '/browser_pools/busy/acquire', {
          acquire_timeout_seconds: 20,
        });
        expect(status).toBe(200);
        expect(holders.has(json.session_id), `browser ${json.session_id} handed out twice`).toBe(
          false,
        );
        holders.set(json.session_id, index);
        maxHeld = Math.max(maxHeld, holders.size);
        const { json: pool } = await call<BrowserPool>('GET', '/browser_pools/busy');
        expect(pool.available_count + pool.acquired_count).toBeLessThanOrEqual(3);
        expect(pool.acquired_count).toBeGreaterThanOrEqual(1);
        // The first round holds long enough for all three to be out at once, however slow the
        // machine; the later ones hand back fast, racing the replacements.
        await new Promise((resolve) => setTimeout(resolve, round === 0 ? 1000 : 20));
        holders.delete(json.session_id);
        expect(
          (await call('POST', '/browser_pools/busy/release', { session_id: json.session_id }))
            .status,
        ).toBe(204);
      }
    };
    await Promise.all(Array.from({ length: 6 }, (_, index) => worker(index)));
    expect(maxHeld).toBe(3);
    // Every release ended its lease; the pool is whole again once the replacements started.
    expect(await waitForAvailable('busy', 3)).toMatchObject({ acquired_count: 0 });
    await call('DELETE', '/browser_pools/busy');
  });

  it('keep pools across a restart and fill them again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-pools-restart-'));
    const config = testConfig({
      XB_ALLOW_NETWORKS: '127.0.0.1/32',
      XB_DATA_DIR: dataDir,
      XB_PORT: '0',
      XB_TOKENS: TEST_TOKEN,
    });
    const first = await startServer(config, pino({ level: 'silent' }));
    const headers = { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' };
    await fetch(`${first.url}/browser_pools`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'kept', size: 1 }),
    });
    // The pool's browser was still starting: closing must not leave it running.
    await first.close();
    expect(processesOfServer(dataDir)).toEqual([]);
    const second = await startServer(config, pino({ level: 'silent' }));
    try {
      let pool: BrowserPool | undefined;
      for (let attempt = 0; attempt < 100 && pool?.available_count !== 1; attempt++) {
        pool = (await (
          await fetch(`${second.url}/browser_pools/kept`, { headers })
        ).json()) as BrowserPool;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(pool).toMatchObject({ name: 'kept', available_count: 1, acquired_count: 0 });
    } finally {
      await second.close();
    }
    expect(processesOfServer(dataDir)).toEqual([]);
  });
});
