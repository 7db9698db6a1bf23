import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';
import { findExecutable } from '../system/executables.js';
import { changeOf, SandboxWatcher } from './sandbox-watcher.js';

const bwrap = findExecutable('bwrap');
const inotifywait = findExecutable('inotifywait');

describe('inotifywait events as watch changes', () => {
  const root = '/home/browser/w';

  it('names the kind, the path (no trailing slash) and whether it is a directory', () => {
    expect(changeOf(root, 'CREATE,ISDIR', '/home/browser/w/new')).toEqual({
      type: 'CREATE',
      path: '/home/browser/w/new',
      name: 'new',
      is_dir: true,
    });
    expect(changeOf(root, 'MODIFY', '/home/browser/w/sub/a.txt')).toMatchObject({
      type: 'WRITE',
      path: '/home/browser/w/sub/a.txt',
      is_dir: false,
    });
    expect(changeOf(root, 'MOVED_FROM', '/home/browser/w/old')).toMatchObject({ type: 'DELETE' });
    expect(changeOf(root, 'MOVED_TO', '/home/browser/w/new')).toMatchObject({ type: 'CREATE' });
    expect(changeOf(root, 'DELETE', '/home/browser/w//gone')).toMatchObject({
      path: '/home/browser/w/gone',
    });
  });

  it('ends the watch when its own directory goes, not when a subdirectory does', () => {
    expect(changeOf(root, 'DELETE_SELF', '/home/browser/w/')).toBe('root-gone');
    expect(changeOf(root, 'MOVE_SELF', '/home/browser/w/')).toBe('root-gone');
    expect(changeOf(root, 'DELETE_SELF', '/home/browser/w/sub/')).toBeUndefined();
    expect(changeOf(root, 'IGNORED', '/home/browser/w/sub/')).toBeUndefined();
  });
});

describe.skipIf(!bwrap || !inotifywait)('a watch whose changes cannot be kept', () => {
  it('ends, and the fault never reaches the process', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'xb-watch-'));
    try {
      const home = join(folder, 'home');
      mkdirSync(join(home, 'w'), { recursive: true });
      const watcher = new SandboxWatcher({
        bubblewrap: bwrap,
        inotifywait,
        logger: pino({ level: 'silent' }),
      });
      let errors = 0;
      const watch = await watcher.watch(
        { home, user: undefined, cgroup: undefined } as unknown as ChromiumInstance,
        { path: '/home/browser/w', recursive: false },
        {
          change: () => {
            throw new RangeError('the watch queue refused the change');
          },
          error: () => {
            errors++;
          },
        },
      );
      expect(watcher.held).toBe(1);
      writeFileSync(join(home, 'w', 'a.txt'), 'a');
      await expect.poll(() => errors, { timeout: 10_000 }).toBe(1);
      // The watch ended: its entries went back.
      expect(watcher.held).toBe(0);
      watch.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
