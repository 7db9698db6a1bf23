import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS } from '@x/types';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase } from './database.js';
import { MAX_KEPT_ANSWER_BYTES, SqliteIdempotencyStore } from './idempotency-store.js';

function storeAt(now: () => number, maxAnswers?: number, maxBytes?: number) {
  const database = openDatabase(mkdtempSync(join(tmpdir(), 'xb-idempotency-')));
  onTestFinished(() => database.close());
  return new SqliteIdempotencyStore(database, () => new Date(now()), maxAnswers, maxBytes);
}

async function keep(store: SqliteIdempotencyStore, key: string, bytes = 2) {
  const lookup = store.lookup('scope', key, 'fp');
  if (lookup.kind !== 'new') throw new Error(`${key} is not new`);
  await lookup.settle({ status: 201, headers: [], body: new Uint8Array(bytes) });
}

describe('SqliteIdempotencyStore', () => {
  it('forgets answers past 24 hours on a prune, keeping the rest', async () => {
    let now = 1_000;
    const store = storeAt(() => now);
    await keep(store, 'old');
    now += LIMITS.idempotencyWindowMs / 2;
    await keep(store, 'young');
    now += LIMITS.idempotencyWindowMs / 2;
    store.prune();
    expect(store.count()).toBe(1);
    expect(store.lookup('scope', 'young', 'fp').kind).toBe('replay');
  });

  it('keeps at most its cap, the oldest going first', async () => {
    let now = 0;
    const store = storeAt(() => now++, 5);
    for (let index = 0; index < 8; index++) await keep(store, `k${index}`);
    store.prune();
    expect(store.count()).toBe(5);
    expect(store.lookup('scope', 'k7', 'fp').kind).toBe('replay');
    expect(store.lookup('scope', 'k0', 'fp').kind).toBe('new');
  });

  it('prunes by itself as a flood of keys comes in, without waiting for the timer', async () => {
    let now = 0;
    const store = storeAt(() => now++, 100);
    for (let index = 0; index < 1_000; index++) await keep(store, `k${index}`);
    expect(store.count()).toBe(100);
  });

  it('keeps at most its bytes, the oldest going first, as large answers come in', async () => {
    let now = 0;
    const store = storeAt(() => now++, 100_000, 1_000_000);
    // 40 answers of 100 kB: a flood by bytes, far under the cap by count.
    for (let index = 0; index < 40; index++) await keep(store, `k${index}`, 100_000);
    store.prune();
    expect(store.bytes()).toBeLessThanOrEqual(1_000_000);
    expect(store.count()).toBe(9); // 9 bodies and their headers fit; a 10th would not
    expect(store.lookup('scope', 'k39', 'fp').kind).toBe('replay');
    expect(store.lookup('scope', 'k0', 'fp').kind).toBe('new');
  });

  it('does not keep an answer larger than its limit: a retry does the work', async () => {
    const store = storeAt(() => 0);
    await keep(store, 'huge', MAX_KEPT_ANSWER_BYTES + 1);
    expect(store.count()).toBe(0);
  });
});
