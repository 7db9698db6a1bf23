import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBrowserPool } from '../fixtures/records.js';

/** The built bin: what `npx xb-fake` runs. */
const BIN = new URL('../../dist/bin/xb-fake.js', import.meta.url).pathname;

function start(args: string[]): {
  child: ChildProcess;
  url: Promise<string>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n') && line) resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`xb-fake exited ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

describe('xb-fake', () => {
  it('prints its URL, serves with the given token and seed, and exits 0 on SIGTERM', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'xb-fake-'));
    const seedFile = join(folder, 'seed.json');
    writeFileSync(seedFile, JSON.stringify({ pools: [buildBrowserPool({ name: 'seeded' })] }));
    const { child, url } = start([
      '--token',
      'secret',
      '--seed',
      seedFile,
      '--allow-networks',
      '10.1.0.0/16',
    ]);
    const base = await url;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const pool = await fetch(`${base}/browser_pools/seeded`, {
      headers: { authorization: 'Bearer secret' },
    });
    expect(pool.status).toBe(200);
    expect(await pool.json()).toMatchObject({ name: 'seeded' });
    expect(
      (await fetch(`${base}/browsers`, { headers: { authorization: 'Bearer test-token' } })).status,
    ).toBe(401);
    const created = await fetch(`${base}/browsers`, {
      method: 'POST',
      headers: { authorization: 'Bearer secret', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await created.json()).toMatchObject({ network: { allow: ['10.1.0.0/16'] } });
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow(TypeError);
  });

  it('exits 2 with a message and the usage for a bad flag or seed', async () => {
    for (const args of [
      ['--port', 'abc'],
      ['--nope'],
      ['--seed', '/no/such/file.json'],
      ['--allow-networks', '10.1.0.0/33'],
    ]) {
      const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const [code] = await once(child, 'exit');
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/^xb-fake: .+\n\nUsage: xb-fake/);
    }
  });
});

describe('xb-fake on a Node.js older than it declares', () => {
  it('says so in one line and exits 1, before loading the fake', async () => {
    const { engines } = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { engines: { node: string } };
    const major = /^>=(\d+)$/.exec(engines.node)?.[1];
    const result = await runOnNode('20.20.2', [BIN, '--help']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `xb-fake: needs Node.js ${major} or newer, and ${process.execPath} is Node.js 20.20.2.\n`,
    });
  });
});

/** Runs Node with `args`, telling the program it is Node `version`. */
async function runOnNode(version: string, args: string[]) {
  const pretend = `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${version}' } });`;
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, 'exit');
  return { code, stdout, stderr };
}
