import { describe, expect, it } from 'vitest';
import { changeOf } from './sandbox-watcher.js';

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
