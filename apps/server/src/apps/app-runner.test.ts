import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageFolder } from '../sandbox/worker-files.js';
import { findSystemTools } from '../system/executables.js';
import { useAppRunner } from '../test-support/app-runners.js';
import { type AppLogLine, AppRunner, type AppRunRequest } from './app-runner.js';

/** An app written for the public Kernel app framework, in TypeScript, as its users write them. */
const KERNEL_APP = `
import { Kernel, type KernelContext } from '@onkernel/sdk';

interface Input { readonly name: string }

const kernel = new Kernel();
const app = kernel.app('greeter');

app.action('hello', async (ctx: KernelContext, payload?: Input) => {
  console.log('saying hello to', payload?.name);
  console.error('a line on stderr');
  return { greeting: \`hello \${payload?.name}\`, invocation: ctx.invocation_id };
});

app.action('fails', async (_ctx: KernelContext) => {
  throw new TypeError('the payload was wrong');
});

app.action('secret', async (_ctx: KernelContext) => ({ secret: process.env.MY_SECRET ?? null }));

app.action('sleeps', async (_ctx: KernelContext) => {
  console.log('going to sleep');
  await new Promise((resolve) => setTimeout(resolve, 60_000));
  return 'woke';
});

app.action('escapes', async (_ctx: KernelContext) => {
  const { readdirSync } = await import('node:fs');
  const seen = (path: string) => { try { return readdirSync(path).length; } catch { return null; } };
  return { root: readdirSync('/').sort(), data: seen(process.env.DATA_DIR ?? '/nonexistent') };
});

app.action('floods', async (_ctx: KernelContext) => {
  const line = 'x'.repeat(100 * 1024);
  for (let index = 0; index < 200; index++) console.log(line);
  return 'flooded';
});

app.action('endless', async (_ctx: KernelContext) => {
  const chunk = 'x'.repeat(1024 * 1024);
  for (let index = 0; index < 256; index++) process.stdout.write(chunk);
  return 'wrote 256 MiB without a newline';
});

app.action('late', async (_ctx: KernelContext) => {
  setTimeout(() => {
    throw new Error('after the answer');
  }, 0);
  return 'answered';
});

app.action('stray', async (_ctx: KernelContext) => {
  void Promise.reject(new RangeError('nobody awaited this'));
  await new Promise((resolve) => setTimeout(resolve, 5000));
  return 'too late';
});

app.action('wide', async (_ctx: KernelContext) => '€'.repeat(100_000));

kernel.app('second').action('one', async (_ctx: KernelContext) => 1);
`;

const sdkFolder = packageFolder('@onkernel/sdk', createRequire(import.meta.url));

const apps = useAppRunner({ network: false });
let appFolder: string;

function request(overrides: Partial<AppRunRequest> = {}): AppRunRequest {
  return {
    id: `inv_${Math.random().toString(36).slice(2, 10)}`,
    folder: appFolder,
    entrypoint: 'app.ts',
    env: { KERNEL_API_KEY: 'deployment-key', KERNEL_BASE_URL: 'http://127.0.0.1:9' },
    timeoutMs: 30_000,
    allowNetworks: [],
    ...overrides,
  };
}

beforeAll(() => {
  appFolder = join(apps.root, 'app');
  mkdirSync(join(appFolder, 'node_modules', '@onkernel'), { recursive: true });
  cpSync(sdkFolder, join(appFolder, 'node_modules', '@onkernel', 'sdk'), { recursive: true });
  writeFileSync(
    join(appFolder, 'package.json'),
    JSON.stringify({
      name: 'greeter',
      type: 'module',
      dependencies: { '@onkernel/sdk': '0.84.0' },
    }),
  );
  writeFileSync(join(appFolder, 'app.ts'), KERNEL_APP);
});

describe('a deployment’s code in its sandbox', () => {
  it('defines the apps and actions a Kernel app framework entrypoint (TypeScript) registers', async () => {
    const outcome = await apps.runner.discover(request());
    expect(outcome).toEqual({
      ok: true,
      apps: [
        {
          name: 'greeter',
          actions: [
            { name: 'hello' },
            { name: 'fails' },
            { name: 'secret' },
            { name: 'sleeps' },
            { name: 'escapes' },
            { name: 'floods' },
            { name: 'endless' },
            { name: 'late' },
            { name: 'stray' },
            { name: 'wide' },
          ],
        },
        { name: 'second', actions: [{ name: 'one' }] },
      ],
    });
    apps.expectNothingLeft();
  });

  it('runs an action with its payload: its output, and its console as log lines', async () => {
    const lines: AppLogLine[] = [];
    const outcome = await apps.runner.invoke(request({ onLog: (line) => lines.push(line) }), {
      app: 'greeter',
      action: 'hello',
      invocationId: 'inv_1',
      payload: '{"name":"Ada"}',
    });
    expect(outcome).toEqual({
      ok: true,
      output: JSON.stringify({ greeting: 'hello Ada', invocation: 'inv_1' }),
    });
    expect(lines).toEqual([
      { stream: 'stdout', message: 'saying hello to Ada' },
      { stream: 'stderr', message: 'a line on stderr' },
    ]);
    apps.expectNothingLeft();
  });

  it('says why an action failed: its error, an unknown action, an entrypoint that is not there', async () => {
    const call = { app: 'greeter', invocationId: 'inv_2' };
    expect(await apps.runner.invoke(request(), { ...call, action: 'fails' })).toEqual({
      ok: false,
      reason: 'TypeError: the payload was wrong',
    });
    const unknown = await apps.runner.invoke(request(), { ...call, action: 'nope' });
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknown.reason).toMatch(/no action "nope" of app "greeter"/);
    const missing = await apps.runner.discover(request({ entrypoint: 'missing.ts' }));
    expect(!missing.ok && missing.reason).toMatch(/entrypoint cannot be loaded/);
    expect(await apps.runner.invoke(request(), { ...call, action: 'late' })).toEqual({
      ok: true,
      output: '"answered"',
    });
    // 300 kB of three-byte characters: some fall across the reads of the pipe.
    expect(await apps.runner.invoke(request(), { ...call, action: 'wide' })).toEqual({
      ok: true,
      output: JSON.stringify('€'.repeat(100_000)),
    });
    expect(await apps.runner.invoke(request(), { ...call, action: 'stray' })).toEqual({
      ok: false,
      reason: 'RangeError: nobody awaited this',
    });
    for (const entrypoint of ['../../etc/passwd', '/etc/passwd', '.', '']) {
      expect(await apps.runner.discover(request({ entrypoint }))).toEqual({
        ok: false,
        reason: `The entrypoint "${entrypoint}" is not inside the app.`,
      });
    }
    apps.expectNothingLeft();
  });

  it('gives the code its environment, and nothing of the host', async () => {
    const secret = await apps.runner.invoke(
      request({ env: { ...request().env, MY_SECRET: 's3cr3t' } }),
      {
        app: 'greeter',
        action: 'secret',
        invocationId: 'inv_3',
      },
    );
    expect(secret).toEqual({ ok: true, output: '{"secret":"s3cr3t"}' });
    const escapes = await apps.runner.invoke(
      request({ env: { ...request().env, DATA_DIR: apps.dataDir } }),
      {
        app: 'greeter',
        action: 'escapes',
        invocationId: 'inv_4',
      },
    );
    expect(escapes.ok).toBe(true);
    const seen = JSON.parse((escapes.ok && escapes.output) || '{}') as {
      root: string[];
      data: number | null;
    };
    expect(seen.data).toBeNull(); // the data directory is not there
    expect(seen.root).not.toContain('root');
    expect(seen.root).not.toContain('work');
    apps.expectNothingLeft();
  });

  it('stops the code for good at a cancel and at its time-out', async () => {
    const controller = new AbortController();
    const lines: AppLogLine[] = [];
    const cancelled = apps.runner.invoke(
      request({
        signal: controller.signal,
        onLog: (line) => {
          lines.push(line);
          if (line.message === 'going to sleep') controller.abort();
        },
      }),
      { app: 'greeter', action: 'sleeps', invocationId: 'inv_5' },
    );
    expect(await cancelled).toEqual({ ok: false, reason: 'Cancelled.' });
    // A cancel while the sandbox is still being made stops the run as soon as it starts.
    const early = new AbortController();
    const startedAt = performance.now();
    const cancelledEarly = apps.runner.invoke(request({ signal: early.signal }), {
      app: 'greeter',
      action: 'sleeps',
      invocationId: 'inv_5b',
    });
    early.abort();
    expect(await cancelledEarly).toEqual({ ok: false, reason: 'Cancelled.' });
    expect(performance.now() - startedAt).toBeLessThan(20_000);
    const timedOut = await apps.runner.invoke(request({ timeoutMs: 1500 }), {
      app: 'greeter',
      action: 'sleeps',
      invocationId: 'inv_6',
    });
    expect(timedOut).toEqual({ ok: false, reason: 'The code ran past its time-out of 2 s.' });
    apps.expectNothingLeft();
  });

  it('keeps a flood of output to its bounds: long lines cut, the code stopped past 8 MiB', async () => {
    const lines: AppLogLine[] = [];
    const outcome = await apps.runner.invoke(request({ onLog: (line) => lines.push(line) }), {
      app: 'greeter',
      action: 'floods',
      invocationId: 'inv_7',
    });
    expect(outcome).toEqual({
      ok: false,
      reason: 'The code wrote more than 8 MiB to its console, and was stopped.',
    });
    const sizes = lines.map((line) => Buffer.byteLength(line.message));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024 + 3);
    expect(lines[0]?.message.endsWith('…')).toBe(true);
    expect(lines.length).toBeLessThan(200);
    apps.expectNothingLeft();
  });

  it('stops code that writes a line without end, holding no more than a line of it', async () => {
    const lines: AppLogLine[] = [];
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const startedAt = performance.now();
    const outcome = await apps.runner.invoke(request({ onLog: (line) => lines.push(line) }), {
      app: 'greeter',
      action: 'endless',
      invocationId: 'inv_8',
    });
    clearInterval(sampler);
    expect(outcome).toEqual({
      ok: false,
      reason: 'The code wrote a console line longer than 1 MiB, and was stopped.',
    });
    expect(lines).toEqual([]);
    // Stopped at its first MiB, not at its time-out; 256 MiB were never read into the server.
    expect(performance.now() - startedAt).toBeLessThan(20_000);
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
    apps.expectNothingLeft();
  });

  it('stops the code when a console handler throws, and the throw never reaches the process', async () => {
    const outcome = await apps.runner.invoke(
      request({
        onLog: () => {
          throw new RangeError('the event log refused the line');
        },
      }),
      { app: 'greeter', action: 'hello', invocationId: 'inv_9', payload: '{"name":"ada"}' },
    );
    expect(outcome).toEqual({
      ok: false,
      reason:
        "The code was stopped: the server could not keep its console (the server's log says why).",
    });
    apps.expectNothingLeft();
  });
});

describe('a run whose sandbox the host cannot make', () => {
  it('fails saying the server could not make it, with nothing of the host in the reason, and leaves nothing', async () => {
    const tools = findSystemTools();
    const runner = new AppRunner(
      tools.bwrap as string,
      apps.dataDir,
      {
        users: undefined,
        isEnabled: true,
        egress: {
          networks: {
            create: () => Promise.reject(new Error('bind EADDRINUSE 10.200.0.9:53')),
            blockedTotal: async () => 0,
            close: async () => undefined,
            killSync: () => undefined,
          },
        },
      },
      pino({ level: 'silent' }),
    );
    const outcome = await runner.discover(request());
    expect(outcome).toEqual({
      ok: false,
      reason:
        "The server could not make the run's sandbox (its user, disk or network): the server's log says why.",
    });
    apps.expectNothingLeft();
  });
});
