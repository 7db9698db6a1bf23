import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The built bin, as its package.json names it. */
const BIN = new URL('../../dist/bin/xb.js', import.meta.url).pathname;

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

describe('xb on a Node.js older than it declares', () => {
  it('says so in one line and exits 1, before loading anything that would fail there', async () => {
    const { engines } = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { engines: { node: string } };
    const major = /^>=(\d+)$/.exec(engines.node)?.[1];
    expect(major).toBeDefined();
    for (const args of [['--help'], ['--version'], []]) {
      expect(await runOnNode('20.20.2', [BIN, ...args])).toEqual({
        code: 1,
        stdout: '',
        stderr: `xb: needs Node.js ${major} or newer, and ${process.execPath} is Node.js 20.20.2.\n`,
      });
    }
    // On the oldest it declares, it goes on.
    expect(await runOnNode(`${major}.0.0`, [BIN, '--version'])).toMatchObject({
      code: 0,
      stderr: '',
    });
  });
});
