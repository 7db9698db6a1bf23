import { describe, expect, it } from 'vitest';
import { Journal, JournalAssertionError, type JournalEntry } from './journal.js';

function entry(overrides: Partial<JournalEntry>): JournalEntry {
  return {
    at: '2026-01-01T00:00:00.000Z',
    method: 'GET',
    path: '/browsers',
    query: {},
    operation: 'browsers.list',
    headers: {},
    body: undefined,
    status: 200,
    requestId: 'req_1',
    fault: undefined,
    ...overrides,
  };
}

describe('Journal', () => {
  const journal = new Journal();
  journal.record(entry({}));
  journal.record(
    entry({ method: 'POST', operation: 'browsers.create', body: { headless: false }, status: 201 }),
  );
  journal.record(entry({ method: 'POST', operation: 'browsers.create', body: {}, status: 201 }));

  it('filters by operation, method, path and a test of your own', () => {
    expect(journal.count('browsers.create')).toBe(2);
    expect(journal.count({ method: 'get' })).toBe(1);
    expect(journal.count({ path: '/browsers', where: (call) => call.status === 201 })).toBe(2);
    expect(journal.last('browsers.create')?.body).toEqual({});
  });

  it('asserts calls by count and by the latest body', () => {
    expect(journal.assertCalled('browsers.create', { times: 2, body: {} }).status).toBe(201);
    expect(() => journal.assertCalled('browsers.create', { times: 1 })).toThrow(
      JournalAssertionError,
    );
    expect(() => journal.assertCalled('browsers.create', { body: { headless: false } })).toThrow(
      /latest call/,
    );
    expect(() => journal.assertCalled('browsers.delete')).toThrow(
      /got 0; received: GET \/browsers → 200/,
    );
  });

  it('asserts that an operation was not called', () => {
    expect(() => journal.assertNotCalled('browsers.delete')).not.toThrow();
    expect(() => journal.assertNotCalled('browsers.list')).toThrow(
      /Expected no call of browsers.list, got 1/,
    );
  });

  it('forgets every call on clear', () => {
    const other = new Journal();
    other.record(entry({}));
    other.clear();
    expect(other.entries).toEqual([]);
  });
});
