import { isDeepStrictEqual } from 'node:util';
import type { CallRecord } from '@x/service-kernel';
import type { OperationName } from '@x/types';

/** One call the fake received, and how it answered. */
export type JournalEntry = CallRecord;

/** Which calls to look at: by operation, method or path, and any test of your own. */
export interface JournalFilter {
  readonly operation?: OperationName;
  readonly method?: string;
  readonly path?: string;
  readonly where?: (entry: JournalEntry) => boolean;
}

/** Thrown by the journal's assertions, with what the fake did receive. */
export class JournalAssertionError extends Error {
  override readonly name = 'JournalAssertionError';
}

function matches(entry: JournalEntry, filter: JournalFilter | OperationName | undefined): boolean {
  if (filter === undefined) return true;
  if (typeof filter === 'string') return entry.operation === filter;
  return (
    (filter.operation === undefined || entry.operation === filter.operation) &&
    (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
    (filter.path === undefined || entry.path === filter.path) &&
    (filter.where === undefined || filter.where(entry))
  );
}

function describe(entries: readonly JournalEntry[]): string {
  if (entries.length === 0) return 'no calls';
  return entries
    .map((entry) => `${entry.method} ${entry.path} → ${entry.status ?? 'dropped'}`)
    .join(', ');
}

/** Every call the fake received, in order, with helpers to assert on them. */
export class Journal {
  readonly #entries: JournalEntry[] = [];

  /** Every call so far, oldest first. */
  get entries(): readonly JournalEntry[] {
    return this.#entries;
  }

  /** Adds a call. */
  record(entry: JournalEntry): void {
    this.#entries.push(entry);
  }

  /** The calls that match, oldest first. */
  calls(filter?: JournalFilter | OperationName): JournalEntry[] {
    return this.#entries.filter((entry) => matches(entry, filter));
  }

  /** How many calls match. */
  count(filter?: JournalFilter | OperationName): number {
    return this.calls(filter).length;
  }

  /** The latest call that matches. */
  last(filter?: JournalFilter | OperationName): JournalEntry | undefined {
    return this.calls(filter).at(-1);
  }

  /**
   * Throws unless calls matching `filter` arrived: exactly `times` of them when given, and the
   * latest with exactly `body` when given. Returns the latest.
   */
  assertCalled(
    filter: JournalFilter | OperationName,
    expected: { times?: number; body?: unknown } = {},
  ): JournalEntry {
    const calls = this.calls(filter);
    const name = typeof filter === 'string' ? filter : JSON.stringify(filter);
    if (calls.length === 0 || (expected.times !== undefined && calls.length !== expected.times)) {
      throw new JournalAssertionError(
        `Expected ${expected.times ?? 'at least 1'} call(s) of ${name}, got ${calls.length}; received: ${describe(this.#entries)}.`,
      );
    }
    const last = calls.at(-1) as JournalEntry;
    if ('body' in expected && !isDeepStrictEqual(last.body, expected.body)) {
      throw new JournalAssertionError(
        `Expected the latest call of ${name} to have body ${JSON.stringify(expected.body)}, got ${JSON.stringify(last.body)}.`,
      );
    }
    return last;
  }

  /** Throws if any call matching `filter` arrived. */
  assertNotCalled(filter: JournalFilter | OperationName): void {
    const calls = this.calls(filter);
    if (calls.length > 0) {
      const name = typeof filter === 'string' ? filter : JSON.stringify(filter);
      throw new JournalAssertionError(
        `Expected no call of ${name}, got ${calls.length}: ${describe(calls)}.`,
      );
    }
  }

  /** Forgets every call. */
  clear(): void {
    this.#entries.length = 0;
  }
}
