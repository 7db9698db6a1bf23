import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECORD_STORE_CHECKS } from '@x/service-kernel';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MIGRATIONS, openDatabase } from './database.js';
import { sqliteRecordStores } from './sqlite-record-store.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'xb-sqlite-store-'));

describe('the SQLite record store', () => {
  for (const check of RECORD_STORE_CHECKS)
    it(check.name, async () => {
      const database = openDatabase(freshDir());
      onTestFinished(() => database.close());
      const stores = sqliteRecordStores(database);
      await check.run(stores.scope('default'), stores);
    });
});

describe('the SQLite schema', () => {
  // What servers of each earlier schema wrote, in their own tables, read back by today's.
  const INVOCATION =
    '{"id":"inv_1","action_name":"a","app_name":"app","version":"1","status":"running","started_at":"2026-01-01T00:00:00.000Z"}';
  const SESSION = '{"session_id":"br_1","created_at":"2026-01-01T00:00:00.000Z"}';
  const EXTENSION =
    '{"id":"ext_1","name":"ad-block","created_at":"2026-01-01T00:00:00.000Z","size_bytes":3}';
  const RECORDS_TABLE = 5; // the schema where every kind moved into one `records` table
  const writtenBy = (version: number): string[] =>
    version < RECORDS_TABLE
      ? [
          `INSERT INTO invocations VALUES ('inv_1', '${INVOCATION}', '2026-01-01T00:00:00.000Z')`,
          `INSERT INTO browsers VALUES ('br_1', '${SESSION}', NULL, 'inv_1', '2026-01-01T00:00:00.000Z', NULL)`,
          ...(version >= 2
            ? [
                `INSERT INTO pools VALUES ('pool_1', 'warm', '{"size":1}', '2026-01-01T00:00:00.000Z')`,
              ]
            : []),
          ...(version >= 4
            ? [`INSERT INTO extensions VALUES ('ext_1', 'ad-block', 'abc', '${EXTENSION}')`]
            : []),
        ]
      : [
          `INSERT INTO records (kind, id, value) VALUES ('invocations', 'inv_1', '${INVOCATION}')`,
          `INSERT INTO records (kind, id, parent, is_open, value) VALUES ('browsers', 'br_1', 'inv_1', 1, '${SESSION}')`,
          `INSERT INTO records (kind, id, name, value) VALUES ('pools', 'pool_1', 'warm', '{"id":"pool_1","name":"warm","created_at":"2026-01-01T00:00:00.000Z","config":{"size":1}}')`,
          `INSERT INTO records (kind, id, name, value) VALUES ('extensions', 'ext_1', 'ad-block', json_object('record', json('${EXTENSION}'), 'key', 'abc'))`,
        ];

  for (let version = 1; version < MIGRATIONS.length; version++) {
    it(`opens a store schema ${version} wrote, with its records`, async () => {
      const dir = freshDir();
      const old = openDatabase(dir, version);
      for (const sql of writtenBy(version)) old.exec(sql);
      old.close();
      const database = openDatabase(dir);
      onTestFinished(() => database.close());
      // What an earlier schema kept belongs to the default project.
      const store = sqliteRecordStores(database).scope('default');
      expect(await store.invocations.get('inv_1')).toMatchObject({ status: 'running' });
      expect(await store.browsers.list({ parent: 'inv_1', isOpen: true })).toHaveLength(1);
      if (version >= 2)
        expect(await store.pools.byName('warm')).toMatchObject({
          id: 'pool_1',
          config: { size: 1 },
        });
      if (version >= 4)
        expect(await store.extensions.byName('ad-block')).toMatchObject({
          key: 'abc',
          record: { id: 'ext_1' },
        });
      // Names are held once from now on, whatever the earlier schema allowed.
      await store.profiles.put('prof_1', { id: 'prof_1', created_at: 'x' }, { name: 'login' });
      await expect(
        store.profiles.put('prof_2', { id: 'prof_2', created_at: 'x' }, { name: 'login' }),
      ).rejects.toThrow(/named "login"/);
    });
  }

  it('refuses a store a newer server wrote, saying so', () => {
    const dir = freshDir();
    const database = openDatabase(dir);
    database.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    database.close();
    expect(() => openDatabase(dir)).toThrow(/written by a newer xb-server/);
  });
});
