import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserSession } from '@x/types';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startServer } from '../server.js';
import { processesOfUser } from '../test-support/processes.js';
import { TEST_TOKEN, testConfig, useTestServer } from '../test-support/servers.js';

const test = useTestServer({ XB_MAX_BROWSERS: '2' });

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${test.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('browser lifecycle', () => {
  it('answers 429 with Retry-After past the configured capacity', async () => {
    const made = [await call('POST', '/browsers', {}), await call('POST', '/browsers', {})];
    const ids = await Promise.all(
      made.map(async (answer) => ((await answer.json()) as BrowserSession).session_id),
    );
    const over = await call('POST', '/browsers', {});
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('5');
    expect(await over.json()).toMatchObject({ code: 'rate_limited' });
    for (const id of ids) await call('DELETE', `/browsers/${id}`);
  });

  it('deletes a browser idle past timeout_seconds, and an API call counts as activity', async () => {
    const idle = (await (
      await call('POST', '/browsers', { timeout_seconds: 10 })
    ).json()) as BrowserSession;
    const busy = (await (
      await call('POST', '/browsers', { timeout_seconds: 10 })
    ).json()) as BrowserSession;
    for (let second = 0; second < 12; second++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await call('POST', `/browsers/${busy.session_id}/computer/type`, { text: 'x' });
    }
    const gone = (await (
      await call('GET', `/browsers/${idle.session_id}`)
    ).json()) as BrowserSession;
    expect(gone.deleted_at).toBeDefined();
    const kept = (await (
      await call('GET', `/browsers/${busy.session_id}`)
    ).json()) as BrowserSession;
    expect(kept.deleted_at).toBeUndefined();
    await call('DELETE', `/browsers/${busy.session_id}`);
  }, 30_000);

  it('runs headless: false on an Xvfb display of its own, closed with the browser', async () => {
    const made = await call('POST', '/browsers', {
      headless: false,
      viewport: { width: 800, height: 600 },
    });
    expect(made.status).toBe(201);
    const session = (await made.json()) as BrowserSession;
    expect(session.headless).toBe(false);
    // Xvfb runs in the browser's sandbox, as the browser's own user.
    const uid = test.server.instance(session.session_id).user?.uid;
    const displays = () =>
      uid === undefined ? [] : processesOfUser(uid).filter((process) => process.name === 'Xvfb');
    if (uid !== undefined) expect(displays()).toHaveLength(1);
    const shot = await call('POST', `/browsers/${session.session_id}/computer/screenshot`, {});
    const png = new Uint8Array(await shot.arrayBuffer());
    const view = new DataView(png.buffer);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([800, 600]);
    await call('DELETE', `/browsers/${session.session_id}`);
    expect(displays()).toEqual([]);
  });

  it('refuses headless: false with a 400 that says what to install when Xvfb is missing', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    const bare = await startServer(
      testConfig({
        XB_ALLOW_NETWORKS: '127.0.0.1/32',
        XB_DATA_DIR: mkdtempSync(join(tmpdir(), 'xb-no-xvfb-')),
        XB_PORT: '0',
        XB_TOKENS: TEST_TOKEN,
      }),
      pino({ level: 'silent' }),
    ).finally(() => {
      process.env.PATH = path;
    });
    try {
      const answer = await fetch(`${bare.url}/browsers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ headless: false }),
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { message: string }).message).toContain(
        'apt-get install xvfb',
      );
    } finally {
      await bare.close();
    }
  });
});
