import Kernel from '@onkernel/sdk';
import type { PlaywrightExecuteResult } from '@x/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { processesOfServer } from '../test-support/processes.js';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const handle = useTestServer();
const call = jsonCaller(() => handle.server.url);
let browser: string;

const execute = async (code: string, timeoutSec?: number, id = browser) =>
  call<PlaywrightExecuteResult>('POST', `/browsers/${id}/playwright/execute`, {
    code,
    ...(timeoutSec === undefined ? {} : { timeout_sec: timeoutSec }),
  });

beforeAll(async () => {
  browser = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
});

describe('Playwright code beside the browser', () => {
  it('returns what the code returns, TypeScript included, with what it logged', async () => {
    expect((await execute('return 1')).json).toEqual({ success: true, result: 1 });
    const typed = await execute(
      'const n: number = 6;\ninterface P { x: number }\nconst p: P = { x: n * 7 };\nconsole.log("seen", p.x);\nreturn p;',
    );
    expect(typed).toEqual({
      status: 200,
      json: { success: true, result: { x: 42 }, stdout: 'seen 42\n' },
    });
    expect((await execute('await page.title()')).json).toEqual({ success: true, result: null });
  });

  it('answers a thrown error, a syntax error and a result that is not JSON as success: false', async () => {
    const thrown = await execute('console.error("before");\nthrow new Error("no such button")');
    expect(thrown.status).toBe(200);
    expect(thrown.json.success).toBe(false);
    expect(thrown.json.error).toBe('no such button');
    expect(thrown.json.stderr).toMatch(
      /^before\nError: no such button\n\s+at .*playwright-code\.ts:2/,
    );
    const syntax = await execute('return (');
    expect(syntax.json.success).toBe(false);
    expect(syntax.json.error).toBeTruthy();
    const cyclic = await execute('const a: { self?: unknown } = {}; a.self = a; return a;');
    expect(cyclic.json).toMatchObject({ success: false, error: expect.stringMatching(/not JSON/) });
  });

  it('drives the page the session is on: what the API types, the code reads', async () => {
    const set = await execute(
      "await page.setContent('<input id=box autofocus>'); await page.focus('#box'); return page.url();",
    );
    expect(set.json).toEqual({ success: true, result: 'about:blank' });
    const typed = await call('POST', `/browsers/${browser}/computer/type`, { text: 'typed here' });
    expect(typed.status).toBe(204);
    expect((await execute("return page.inputValue('#box')")).json).toEqual({
      success: true,
      result: 'typed here',
    });
  });

  it('runs in the sandbox, as the session, not in the server', async () => {
    const seen = await execute(
      "const fs = await import('node:fs');\nreturn { pid: process.pid, home: process.env.HOME, data: fs.existsSync(" +
        JSON.stringify(handle.dataDir) +
        "), net: (await import('node:os')).networkInterfaces() };",
    );
    expect(seen.json.success).toBe(true);
    const result = seen.json.result as { pid: number; home: string; data: boolean; net: object };
    expect(result.pid).toBeLessThan(10);
    expect(result.home).toBe('/home/browser');
    expect(result.data).toBe(false);
    expect(Object.keys(result.net)).toEqual(['lo']);
  });

  it('stops a busy loop and a promise that never settles at the time-out, for good, and works right after', async () => {
    const started = performance.now();
    const loop = await execute('while (true) {}', 2);
    expect(loop.json).toEqual({ success: false, error: 'Execution timed out after 2000 ms.' });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await execute('return 2')).json).toEqual({ success: true, result: 2 });
    // Code that goes on changing the page after its time-out would go on without a real stop.
    const changing = await execute(
      "await page.evaluate('window.ticks = 0');\nsetInterval(() => page.evaluate('window.ticks++').catch(() => {}), 20);\nawait new Promise(() => {});",
      1,
    );
    expect(changing.json.error).toBe('Execution timed out after 1000 ms.');
    const first = (await execute("return page.evaluate('window.ticks')")).json.result as number;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const later = (await execute("return page.evaluate('window.ticks')")).json.result as number;
    expect(first).toBeGreaterThan(0);
    expect(later).toBe(first);
  });

  it('stops the worker when the code writes past its bound to stderr, and works right after', async () => {
    const flood = await execute(
      "const chunk = 'x'.repeat(1024 * 1024);\nfor (let i = 0; i < 80; i++) await new Promise((resolve) => process.stderr.write(chunk, resolve));\nreturn 'wrote 80 MiB';",
    );
    expect(flood.json).toEqual({
      success: false,
      error: expect.stringMatching(
        /^The Playwright worker ended while the code ran: The code sent \d+ bytes, past its bound\.$/,
      ),
    });
    expect((await execute('return 2')).json).toEqual({ success: true, result: 2 });
  });

  it('stops a loop left running in the page itself', async () => {
    const stuck = await execute("await page.evaluate('for (;;) {}')", 2);
    expect(stuck.json.error).toBe('Execution timed out after 2000 ms.');
    expect((await execute("return page.evaluate('1 + 1')")).json).toEqual({
      success: true,
      result: 2,
    });
  });

  it('runs one call at a time per browser', async () => {
    const code =
      'const start = Date.now(); await new Promise((r) => setTimeout(r, 300)); return [start, Date.now()];';
    const [a, b] = await Promise.all([execute(code), execute(code)]);
    const [aStart, aEnd] = a.json.result as [number, number];
    const [bStart, bEnd] = b.json.result as [number, number];
    expect(aEnd <= bStart || bEnd <= aStart).toBe(true);
  });

  it('ends its worker with the browser: no process is left', async () => {
    const workers = () =>
      processesOfServer(handle.dataDir).filter((process) =>
        process.commandLine.includes('playwright-worker'),
      );
    const before = workers().length;
    const other = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
    expect((await execute('return 3', undefined, other)).json).toEqual({
      success: true,
      result: 3,
    });
    expect(workers().length).toBeGreaterThan(before);
    expect((await call('DELETE', `/browsers/${other}`)).status).toBe(204);
    await expect.poll(() => workers().length, { timeout: 10_000 }).toBe(before);
  });

  it('answers the Kernel SDK 0.84', async () => {
    const sdk = new Kernel({ apiKey: TEST_TOKEN, baseURL: handle.server.url, maxRetries: 0 });
    expect(await sdk.browsers.playwright.execute(browser, { code: 'return [1, "two"]' })).toEqual({
      success: true,
      result: [1, 'two'],
    });
    const failed = await sdk.browsers.playwright.execute(browser, {
      code: 'throw new Error("sdk failure")',
      timeout_sec: 5,
    });
    expect(failed).toMatchObject({ success: false, error: 'sdk failure' });
  });

  it('refuses what it cannot run', async () => {
    expect((await execute('return 1', 0)).status).toBe(400);
    expect((await execute('return 1', 301)).status).toBe(400);
    expect((await execute('')).status).toBe(400);
    expect((await execute('return 1', undefined, 'nosuchbrowser')).status).toBe(404);
  });
});
