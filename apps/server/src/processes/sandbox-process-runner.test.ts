import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessEnd } from '@x/service-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChromiumInstance } from '../browsers/chromium-engine.js';
import { findExecutable } from '../system/executables.js';
import { SandboxProcessRunner } from './sandbox-process-runner.js';

const bwrap = findExecutable('bwrap');
let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'xb-runner-'));
  mkdirSync(join(folder, 'home'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(!bwrap)('a process started in its sandbox', () => {
  it('gets a TERM sent while a loaded machine still sets its sandbox up', async () => {
    // A bubblewrap that takes 2.5 s before it starts, as one can on a loaded machine: a read
    // that waits on a FIFO nobody writes to (a shell builtin, so no other process runs meanwhile),
    // then the real one. It is named bwrap, as the sandbox's own processes are.
    const slow = join(folder, 'bwrap');
    const fifo = join(folder, 'hold');
    writeFileSync(slow, `#!/bin/bash\nread -t 2.5 <> ${fifo}\nexec ${bwrap} "$@"\n`);
    chmodSync(slow, 0o755);
    execFileSync('mkfifo', [fifo]);
    const runner = new SandboxProcessRunner(slow, join(folder, 'pipes'));
    const instance = { home: join(folder, 'home'), user: undefined, cgroup: undefined };
    let ended: (end: ProcessEnd) => void = () => undefined;
    const end = new Promise<ProcessEnd>((resolve) => {
      ended = resolve;
    });
    const running = runner.start(
      instance as unknown as ChromiumInstance,
      { id: 'p', command: 'sleep', args: ['600'], cwd: '/home/browser', env: {}, stdin: false },
      { output: () => undefined, exit: (value) => ended(value) },
    );
    running.signal('TERM');
    const outcome = await Promise.race([
      end,
      new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 8_000)),
    ]);
    if (outcome === 'running') running.signal('KILL');
    expect(outcome).toEqual({ code: 143, signal: null });
  });
});
