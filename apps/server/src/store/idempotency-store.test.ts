import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS } from '@x/types';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useTestCluster } from '../test-support/test-cluster.js';
import { openDatabase } from './database.js';
import {
  type AnswerTable,
  KeptIdempotencyStore,
  MAX_KEPT_ANSWER_BYTES,
  postgresAnswers,
  sqliteAnswers,
} from './idempotency-store.js';

const test = useTestCluster();

const engines: Record<string, () => Promise<AnswerTable>> = {
  SQLite: async () => {
    const database = openDatabase(mkdtempSync(join(tmpdir(), 'xb-idempotency-')));
    onTestFinished(() => database.close());
    return sqliteAnswers(database);
  },
  PostgreSQL: async () => postgresAnswers(await test.pool()),
};

for (const [engine, answersOf] of Object.entries(engines)) {
  async function storeAt(now: () => number, maxAnswers?: number, maxBytes?: number) {
    return new KeptIdempotencyStore(await answersOf(), {
      now: () => new Date(now()),
      maxAnswers,
      maxBytes,
    });
  }

  async function keep(store: KeptIdempotencyStore, key: string, bytes = 2) {
    const lookup = await store.lookup('scope', key, 'fp');
    if (lookup.kind !== 'new') throw new Error(`${key} is not new`);
    await lookup.settle({ status: 201, headers: [['x-a', 'b']], body: new Uint8Array(bytes) });
  }

  const kindOf = async (store: KeptIdempotencyStore, key: string) =>
    (await store.lookup('scope', key, 'fp')).kind;

  describe(`idempotency answers kept in ${engine}`, () => {
    it('replays an answer for its key, and says when the key comes with another body', async () => {
      const store = await storeAt(() => 0);
      await keep(store, 'k', 3);
      const replay = await store.lookup('scope', 'k', 'fp');
      if (replay.kind !== 'replay') throw new Error('not replayed');
      expect(await replay.response).toEqual({
        status: 201,
        headers: [['x-a', 'b']],
        body: new Uint8Array(3),
      });
      expect(await kindOf(store, 'other')).toBe('new');
      expect((await store.lookup('scope', 'k', 'another')).kind).toBe('reused');
    });

    it('forgets answers past 24 hours on a prune, keeping the rest', async () => {
      let now = 1_000;
      const store = await storeAt(() => now);
      await keep(store, 'old');
      now += LIMITS.idempotencyWindowMs / 2;
      await keep(store, 'young');
      now += LIMITS.idempotencyWindowMs / 2;
      await store.prune();
      expect(await store.count()).toBe(1);
      expect(await kindOf(store, 'young')).toBe('replay');
    });

    it('keeps at most its cap, the oldest going first', async () => {
      let now = 0;
      const store = await storeAt(() => now++, 5);
      for (let index = 0; index < 8; index++) await keep(store, `k${index}`);
      await store.prune();
      expect(await store.count()).toBe(5);
      expect(await kindOf(store, 'k7')).toBe('replay');
      expect(await kindOf(store, 'k0')).toBe('new');
    });

    it('prunes by itself as a flood of keys comes in, without waiting for the timer', async () => {
      let now = 0;
      const store = await storeAt(() => now++, 100);
      for (let index = 0; index < 1_000; index++) await keep(store, `k${index}`);
      expect(await store.count()).toBe(100);
    });

    it('keeps at most its bytes, the oldest going first, as large answers come in', async () => {
      let now = 0;
      const store = await storeAt(() => now++, 100_000, 1_000_000);
      // 40 answers of 100 kB: a flood by bytes, far under the cap by count.
      for (let index = 0; index < 40; index++) await keep(store, `k${index}`, 100_000);
      await store.prune();
      expect(await store.bytes()).toBeLessThanOrEqual(1_000_000);
      expect(await store.count()).toBe(9); // 9 bodies and their headers fit; a 10th would not
      expect(await kindOf(store, 'k39')).toBe('replay');
      expect(await kindOf(store, 'k0')).toBe('new');
    });

    it('does not keep an answer larger than its limit: a retry does the work', async () => {
      const store = await storeAt(() => 0);
      await keep(store, 'huge', MAX_KEPT_ANSWER_BYTES + 1);
      expect(await store.count()).toBe(0);
    });
  });
}
