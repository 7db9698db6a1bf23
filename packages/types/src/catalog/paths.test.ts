import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operationByName, operations } from './operations.js';
import { allowedMethods, buildPath, matchOperation, pathParamNames } from './paths.js';

describe('buildPath', () => {
  it('fills and percent-encodes the placeholders', () => {
    const operation = operationByName('browsers.replays.stop');
    expect(buildPath(operation, { id: 'b 1', replay_id: 'r/2' })).toBe(
      '/browsers/b%201/replays/r%2F2/stop',
    );
  });

  it('refuses dot segments, which no URL can carry', () => {
    const operation = operationByName('browserPools.get');
    expect(() => buildPath(operation, { id_or_name: '..' })).toThrow(/cannot be "\.\."/);
    expect(() => buildPath(operation, { id_or_name: '.' })).toThrow(/cannot be "\."/);
    expect(buildPath(operation, { id_or_name: '...' })).toBe('/browser_pools/...');
  });

  it('throws on a missing or empty parameter', () => {
    const operation = operationByName('browsers.get');
    expect(() => buildPath(operation, {})).toThrow(/missing path parameter "id"/);
    expect(() => buildPath(operation, { id: '' })).toThrow(/missing path parameter "id"/);
  });
});

describe('matchOperation', () => {
  it('finds the operation and decodes its params', () => {
    const match = matchOperation('get', '/browsers/b%201/process/p%2F2/status');
    expect(match?.operation.name).toBe('browsers.process.status');
    expect(match?.params).toEqual({ id: 'b 1', process_id: 'p/2' });
  });

  it('tells operations on the same path apart by method', () => {
    expect(matchOperation('GET', '/browser_pools/x')?.operation.name).toBe('browserPools.get');
    expect(matchOperation('PATCH', '/browser_pools/x')?.operation.name).toBe('browserPools.update');
    expect(matchOperation('DELETE', '/browser_pools/x')?.operation.name).toBe(
      'browserPools.delete',
    );
  });

  it('prefers literal segments over parameters', () => {
    expect(matchOperation('POST', '/browsers/b1/fs/watch')?.operation.name).toBe(
      'browsers.fs.watch.start',
    );
    expect(matchOperation('POST', '/browsers/b1/process/spawn')?.operation.name).toBe(
      'browsers.process.spawn',
    );
  });

  it('accepts one trailing slash', () => {
    expect(matchOperation('GET', '/browsers/')?.operation.name).toBe('browsers.list');
  });

  it('matches nothing for unknown paths, empty segments or malformed escapes', () => {
    expect(matchOperation('GET', '/nope')).toBeUndefined();
    expect(matchOperation('GET', '/browsers//replays')).toBeUndefined();
    expect(matchOperation('GET', '/browsers/%zz')).toBeUndefined();
    expect(matchOperation('PUT', '/browsers/b1')).toBeUndefined();
  });

  it('searches only the given operations when asked', () => {
    const within = [operationByName('browsers.get')];
    expect(matchOperation('GET', '/browsers/b1', within)?.operation.name).toBe('browsers.get');
    expect(matchOperation('DELETE', '/browsers/b1', within)).toBeUndefined();
  });
});

describe('allowedMethods', () => {
  it('lists the methods a path accepts, to tell 405 from 404', () => {
    expect(allowedMethods('/browser_pools/x').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    expect(allowedMethods('/browsers/b1/computer/type')).toEqual(['POST']);
    expect(allowedMethods('/nope')).toEqual([]);
  });
});

describe('buildPath and matchOperation round-trip', () => {
  it.each(operations.map((operation) => [operation.name, operation] as const))(
    '%s: any parameter values survive the trip',
    (_, operation) => {
      const names = pathParamNames(operation.path);
      const value = fc
        .string({ minLength: 1, maxLength: 40, unit: 'grapheme' })
        .filter((text) => text !== '.' && text !== '..');
      fc.assert(
        fc.property(fc.tuple(...names.map(() => value)), (values) => {
          const params = Object.fromEntries(names.map((name, index) => [name, values[index]]));
          const path = buildPath(operation, params as Record<string, string>);
          const url = new URL(path, 'http://host.test');
          const match = matchOperation(operation.method, url.pathname);
          expect(match?.operation).toBe(operation);
          expect(match?.params).toEqual(params);
        }),
        { numRuns: 60 },
      );
    },
  );

  it('round-trips ids that need escaping, through a real URL', () => {
    const operation = operationByName('browsers.fs.watch.stop');
    for (const id of ['a/b', 'héllo', '100%', '...', '.a', 'a?b#c', ' ', '世界', '👋', 'a%2Fb']) {
      const url = new URL(buildPath(operation, { id, watch_id: id }), 'http://host.test');
      expect(matchOperation('DELETE', url.pathname)?.params).toEqual({ id, watch_id: id });
    }
  });
});
