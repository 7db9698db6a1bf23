import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findExecutable } from './executables.js';

/** Whether this process may raise a hard limit (root with CAP_SYS_RESOURCE, bit 24). */
function maySetHardLimits(): boolean {
  const line = readFileSync('/proc/self/status', 'utf8').match(/^CapEff:\s+([0-9a-f]+)$/m);
  return process.getuid?.() === 0 && ((BigInt(`0x${line?.[1] ?? '0'}`) >> 24n) & 1n) === 1n;
}

describe("the server's open-files limit", () => {
  it('is raised at start as far as it may go, and says why when it may go no further', () => {
    const prlimit = findExecutable('prlimit', ['/usr/bin']);
    expect(prlimit).toBeDefined();
    // A child started with 256 open files (512 hard) raises its own limit.
    const module = JSON.stringify(new URL('./file-limit.ts', import.meta.url).href);
    const script = `const { raiseFileLimit } = await import(${module});
      console.log(JSON.stringify(raiseFileLimit(${JSON.stringify(prlimit)})));`;
    const run = spawnSync(
      prlimit as string,
      ['--nofile=256:512', process.execPath, '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    const raised = JSON.parse(run.stdout) as { soft: number; hard: number; note?: string };
    expect(raised.soft).toBe(raised.hard); // the soft limit is up to the hard one
    if (maySetHardLimits()) {
      expect(raised.hard).toBeGreaterThan(512);
      expect(raised.note).toBeUndefined();
    } else {
      expect(raised.hard).toBe(512);
      if (process.getuid?.() === 0) expect(raised.note).toMatch(/prlimit failed/);
    }
  });
});
