import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecResult, ProcessStatus } from '@x/types';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningServer, startServer } from '../server.js';
import { processesOfServer } from '../test-support/processes.js';
import { testConfig } from '../test-support/servers.js';

const TOKEN = 'processes-secret-token';
let server: RunningServer;
let dataDir: string;
let browser: string;

const call = async <T>(
  method: string,
  path: string,
  body?: unknown,
  url = server.url,
): Promise<{ status: number; json: T }> => {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as T };
};
const exec = async (command: string, args: string[] = [], extra: Record<string, unknown> = {}) => {
  const { json } = await call<ExecResult>('POST', `/browsers/${browser}/process/exec`, {
    command,
    args,
    ...extra,
  });
  return {
    ...json,
    stdout: Buffer.from(json.stdout_b64, 'base64').toString(),
    stderr: Buffer.from(json.stderr_b64, 'base64').toString(),
  };
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'xb-processes-'));
  server = await startServer(
    testConfig({
      XB_ALLOW_NETWORKS: '127.0.0.1/32',
      XB_DATA_DIR: dataDir,
      XB_PORT: '0',
      XB_TOKENS: TOKEN,
    }),
    pino({ level: 'silent' }),
  );
  browser = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
});
afterAll(() => server?.close());

describe('processes in the sandbox', () => {
  it('see the instance at /home/browser and nothing else of the host, not even the server’s data', async () => {
    const written = await exec('sh', [
      '-c',
      'echo kept > /home/browser/Downloads/note.txt && cat Downloads/note.txt && pwd',
    ]);
    expect(written).toMatchObject({ exit_code: 0, stdout: 'kept\n/home/browser\n' });
    const secret = await exec('cat', [join(dataDir, 'token')]);
    expect(secret.exit_code).not.toBe(0);
    expect(secret.stdout).toBe('');
    expect((await exec('ls', ['/work'])).exit_code).not.toBe(0);
  });

  it('get only the environment they are given, never the server’s', async () => {
    const result = await exec('sh', ['-c', 'env; cat /proc/1/environ | tr "\\0" "\\n"'], {
      env: { GREETING: 'hi' },
    });
    expect(result.stdout).toContain('GREETING=hi');
    expect(result.stdout).toContain('HOME=/home/browser');
    expect(result.stdout).not.toContain(TOKEN);
    expect(result.stdout).not.toContain('XB_');
  });

  it('report measured cpu and resident memory while running, 137 when killed, 0 after', async () => {
    const { json: spawned } = await call<{ process_id: string }>(
      'POST',
      `/browsers/${browser}/process/spawn`,
      {
        command: 'sh',
        args: ['-c', 'while :; do :; done'],
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const path = `/browsers/${browser}/process/${spawned.process_id}`;
    const running = (await call<ProcessStatus>('GET', `${path}/status`)).json;
    expect(running.state).toBe('running');
    expect(running.cpu_pct).toBeGreaterThan(20);
    expect(running.mem_bytes).toBeGreaterThan(100_000);
    await call('POST', `${path}/kill`, { signal: 'KILL' });
    await expect
      .poll(async () => (await call<ProcessStatus>('GET', `${path}/status`)).json.state, {
        timeout: 10_000,
      })
      .toBe('exited');
    expect((await call<ProcessStatus>('GET', `${path}/status`)).json).toEqual({
      state: 'exited',
      exit_code: 137,
      cpu_pct: 0,
      mem_bytes: 0,
    });
  });

  it('enforce timeout_sec', async () => {
    const started = performance.now();
    const result = await exec('sleep', ['30'], { timeout_sec: 1 });
    expect(result.exit_code).toBe(137);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('die with their browser', async () => {
    const other = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
    const { json } = await call<{ pid: number }>('POST', `/browsers/${other}/process/spawn`, {
      command: 'sleep',
      args: ['60'],
    });
    const sleeping = () => processesOfServer(dataDir).filter((process) => process.name === 'sleep');
    // The sandbox takes a moment to set up before the command runs.
    await vi.waitUntil(() => sleeping().length > 0, { timeout: 5_000, interval: 50 });
    await call('DELETE', `/browsers/${other}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sleeping()).toEqual([]);
    expect(json.pid).toBeGreaterThan(0);
  });

  it('killed while their sandbox is still being set up, leave nothing behind', async () => {
    const sandboxed = () =>
      processesOfServer(dataDir).filter((process) => process.commandLine.includes('sleep 600'));
    for (let round = 0; round < 20; round++) {
      const { json } = await call<{ process_id: string }>(
        'POST',
        `/browsers/${browser}/process/spawn`,
        { command: 'sleep', args: ['600'] },
      );
      // At once, as a release or a delete right after a spawn does.
      await call('POST', `/browsers/${browser}/process/${json.process_id}/kill`, {
        signal: 'KILL',
      });
    }
    await vi.waitUntil(() => sandboxed().length === 0, { timeout: 5_000, interval: 100 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sandboxed()).toEqual([]);
  });

  it('answer 403 when the operator turned them off', async () => {
    const off = await startServer(
      testConfig({
        XB_ALLOW_NETWORKS: '127.0.0.1/32',
        XB_DATA_DIR: mkdtempSync(join(tmpdir(), 'xb-off-')),
        XB_PORT: '0',
        XB_TOKENS: TOKEN,
        XB_PROCESSES: 'off',
      }),
      pino({ level: 'silent' }),
    );
    try {
      const id = (await call<{ session_id: string }>('POST', '/browsers', {}, off.url)).json
        .session_id;
      const answer = await call<{ code: string }>(
        'POST',
        `/browsers/${id}/process/exec`,
        { command: 'true' },
        off.url,
      );
      expect(answer).toMatchObject({ status: 403, json: { code: 'forbidden' } });
    } finally {
      await off.close();
    }
  });
});
