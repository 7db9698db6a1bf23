import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findExecutable } from '../system/executables.js';
import { startVirtualDisplay } from './virtual-display.js';

const bwrap = findExecutable('bwrap');
const xvfb = findExecutable('Xvfb');
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'xb-display-'));
  mkdirSync(join(folder, 'home'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A display whose `Xvfb` is a script of `lines`, run in the sandbox from its home. */
function scriptedDisplay(lines: readonly string[]) {
  const home = join(folder, 'home');
  writeFileSync(join(home, 'xvfb'), ['#!/bin/sh', ...lines].join('\n'), { mode: 0o755 });
  return startVirtualDisplay(
    '/home/browser/xvfb',
    { width: 100, height: 100 },
    { bubblewrap: bwrap as string, home, user: undefined },
  );
}

describe.skipIf(!bwrap)("a display's output", () => {
  it.skipIf(!xvfb)('gives the number Xvfb says', async () => {
    const display = await startVirtualDisplay(
      xvfb as string,
      { width: 100, height: 100 },
      { bubblewrap: bwrap as string, home: join(folder, 'home'), user: undefined },
    );
    try {
      expect(display.display).toMatch(/^:\d+$/);
    } finally {
      await display.close();
    }
  });

  it('is read for its display number only: what is written after finds no reader', async () => {
    // A display that says its number, then writes 8 MiB more to the same stdout, and notes
    // whether they were taken.
    const display = await scriptedDisplay([
      'echo 7',
      'if head -c 8388608 /dev/zero; then said=read; else said=refused; fi',
      'echo $said > /home/browser/flood',
      'exec sleep 600',
    ]);
    try {
      expect(display.display).toBe(':7');
      const flood = join(folder, 'home', 'flood');
      await expect.poll(() => existsSync(flood), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => readFileSync(flood, 'utf8'), { timeout: 10_000 }).toBe('refused\n');
    } finally {
      await display.close();
    }
  });

  it('keeps a display whose number came in one read with more after it', async () => {
    // Its number and 4 KiB more in one write: the server reads them as one chunk.
    const display = await scriptedDisplay(["printf '7\\n%04096d' 0", 'exec sleep 600']);
    try {
      expect(display.display).toBe(':7');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(display.process.exitCode).toBeNull();
      expect(display.process.signalCode).toBeNull();
    } finally {
      await display.close();
    }
  });
});
