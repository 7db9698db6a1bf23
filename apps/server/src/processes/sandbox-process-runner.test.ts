import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessEnd } from '@x/service-kernel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';
import { findExecutable } from '../system/executables.js';
import { SandboxProcessRunner } from './sandbox-process-runner.js';

const bwrap = findExecutable('bwrap');
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'xb-runner-'));
  mkdirSync(join(folder, 'home'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/**
 * A bubblewrap that takes 2.5 s before it starts, as one can on a loaded machine: a read that
 * waits on a FIFO nobody writes to (a shell builtin, so no other process runs meanwhile), then the
 * real one. It is named bwrap, as the sandbox's own processes are.
 */
function slowBubblewrap(): string {
  const slow = join(folder, 'bwrap');
  const fifo = join(folder, 'hold');
  writeFileSync(slow, `#!/bin/bash\nread -t 2.5 <> ${fifo}\nexec ${bwrap} "$@"\n`);
  chmodSync(slow, 0o755);
  execFileSync('mkfifo', ['-m', '600', fifo]);
  return slow;
}

/** Starts `sleep 600` with `runner`, signals it after `delayMs`, and tells how it ended (in 8 s). */
async function signalSleep(
  runner: SandboxProcessRunner,
  delayMs: number,
): Promise<ProcessEnd | 'running'> {
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
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  running.signal('TERM');
  const outcome = await Promise.race([
    end,
    new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 8_000)),
  ]);
  if (outcome === 'running') running.signal('KILL');
  return outcome;
}

describe.skipIf(!bwrap)('a process started in its sandbox', () => {
  it('gets a TERM sent while a loaded machine still sets its sandbox up', async () => {
    const runner = new SandboxProcessRunner(slowBubblewrap(), join(folder, 'pipes'));
    expect(await signalSleep(runner, 0)).toEqual({ code: 143, signal: null });
  });

  it('gets a TERM sent while what starts its sandbox still runs, and the starter none', async () => {
    // What the server starts is the group's leader: a shell that becomes bubblewrap. A TERM that
    // leader took as bubblewrap, before its sandbox was told to die with it, would leave the
    // sandbox running the command. Here a starter that runs a slow bubblewrap and waits for it
    // shows that: the TERM must wait for the command, not end the starter.
    const starter = join(folder, 'xb-start');
    writeFileSync(starter, `#!/bin/sh\n${slowBubblewrap()} "$@" &\nwait $!\n`);
    chmodSync(starter, 0o755);
    const runner = new SandboxProcessRunner(starter, join(folder, 'pipes'));
    expect(await signalSleep(runner, 300)).toEqual({ code: 143, signal: null });
  });

  it('stops a process whose output the server cannot keep, and the fault never reaches the process', async () => {
    const runner = new SandboxProcessRunner(bwrap, join(folder, 'pipes'));
    const instance = { home: join(folder, 'home'), user: undefined, cgroup: undefined };
    for (const tty of [undefined, { rows: 24, cols: 80 }]) {
      let ended: (end: ProcessEnd) => void = () => undefined;
      const end = new Promise<ProcessEnd>((resolve) => {
        ended = resolve;
      });
      const running = runner.start(
        instance as unknown as ChromiumInstance,
        {
          id: 'p',
          command: '/bin/sh',
          args: ['-c', 'echo one; exec sleep 600'],
          cwd: '/home/browser',
          env: {},
          stdin: false,
          tty,
        },
        {
          output: () => {
            throw new RangeError('the output tail refused the bytes');
          },
          exit: (value) => ended(value),
        },
      );
      const outcome = await Promise.race([
        end,
        new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 8_000)),
      ]);
      if (outcome === 'running') running.signal('KILL');
      expect(outcome, tty ? 'on a terminal' : 'on pipes').toEqual({
        code: null,
        signal: 'SIGKILL',
      });
    }
  });
});
