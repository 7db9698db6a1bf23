import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { StartWatchBodySchema, WatchEventSchema } from './watch.js';

describe('StartWatchBodySchema', () => {
  it('defaults recursive to false', () => {
    expect(v.parse(StartWatchBodySchema, { path: '/home/browser/Downloads' })).toEqual({
      path: '/home/browser/Downloads',
      recursive: false,
    });
  });

  it('requires a non-empty path and rejects unknown fields', () => {
    expect(v.is(StartWatchBodySchema, {})).toBe(false);
    expect(v.is(StartWatchBodySchema, { path: '' })).toBe(false);
    expect(v.is(StartWatchBodySchema, { path: '/x', recurse: true })).toBe(false);
  });
});

describe('WatchEventSchema', () => {
  it.each(['CREATE', 'WRITE', 'DELETE', 'RENAME'])('accepts a %s event', (type) => {
    const event = { type, path: '/home/browser/Downloads/a.pdf', name: 'a.pdf', is_dir: false };
    expect(v.parse(WatchEventSchema, event)).toEqual(event);
  });

  it('accepts an OVERFLOW event that says how many were lost', () => {
    expect(v.is(WatchEventSchema, { type: 'OVERFLOW', lost: 12 })).toBe(true);
    expect(v.is(WatchEventSchema, { type: 'OVERFLOW' })).toBe(false);
    expect(v.is(WatchEventSchema, { type: 'OVERFLOW', lost: 0 })).toBe(false);
  });

  it('rejects an unknown type or a change without path', () => {
    expect(v.is(WatchEventSchema, { type: 'CHMOD', path: '/x' })).toBe(false);
    expect(v.is(WatchEventSchema, { type: 'CREATE' })).toBe(false);
  });
});
