import { RECORD_STORE_CHECKS } from '@x/service-kernel';
import { describe, expect, it } from 'vitest';
import { useTestCluster } from '../../test-support/test-cluster.js';
import { postgresRecordStores } from './postgres-record-store.js';
import { migrate, POSTGRES_MIGRATIONS } from './postgres-schema.js';

const test = useTestCluster();

describe('the PostgreSQL record store', () => {
  for (const check of RECORD_STORE_CHECKS)
    it(check.name, async () => {
      const pool = await test.pool();
      const stores = postgresRecordStores(pool);
      await check.run(stores.scope('default'), stores);
    });
});

describe('the PostgreSQL schema', () => {
  it('migrates from empty and from each earlier version, once however many servers start', async () => {
    for (let version = 0; version <= POSTGRES_MIGRATIONS.length; version++) {
      const pool = await test.pool({ migrated: false });
      expect(await migrate(pool, version)).toBe(version);
      const versions = await Promise.all([migrate(pool), migrate(pool), migrate(pool)]);
      expect(versions).toEqual(versions.map(() => POSTGRES_MIGRATIONS.length));
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM xb_schema');
      expect(rows[0].n).toBe(POSTGRES_MIGRATIONS.length);
    }
  });

  it('refuses a database a newer server migrated, saying so', async () => {
    const pool = await test.pool();
    await pool.query('INSERT INTO xb_schema (version) VALUES ($1)', [
      POSTGRES_MIGRATIONS.length + 1,
    ]);
    await expect(migrate(pool)).rejects.toThrow(/migrated by a newer xb-server/);
  });

  it('answers 503 with Retry-After while the database is down, and carries on once it is back', async () => {
    const pool = await test.pool();
    const store = postgresRecordStores(pool).scope('default');
    await store.invocations.put('i1', {
      id: 'i1',
      action_name: 'a',
      app_name: 'b',
      version: '1',
      status: 'running',
      started_at: 'x',
    });
    await test.cluster.halt();
    try {
      for (const call of [
        () => store.invocations.get('i1'),
        () => store.invocations.put('i2', {} as never),
        () => store.transaction(async ({ invocations }) => invocations.list()),
      ])
        await expect(call()).rejects.toMatchObject({
          status: 503,
          headers: { 'retry-after': '2' },
          message: expect.not.stringContaining('postgres://'),
        });
    } finally {
      await test.cluster.resume();
    }
    expect(await store.invocations.get('i1')).toMatchObject({ status: 'running' });
  });
});
