import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import pino from 'pino';
import { expect, it } from 'vitest';
import { startServer } from '../server.js';
import { jsonCaller, TEST_TOKEN, testConfig } from '../test-support/servers.js';

it('the suite runs its servers on the engine it was asked for (XB_TEST_STORE)', async () => {
  const onPostgres = process.env.XB_TEST_STORE === 'postgresql';
  if (onPostgres) expect(process.env.XB_TEST_POSTGRES_URL).toMatch(/^postgres:\/\//);
  const dataDir = mkdtempSync(join(tmpdir(), 'xb-suite-engine-'));
  const config = testConfig({ XB_DATA_DIR: dataDir, XB_PORT: '0', XB_TOKENS: TEST_TOKEN });
  expect(config.databaseUrl !== undefined).toBe(onPostgres);
  const server = await startServer(config, pino({ level: 'silent' }));
  try {
    const call = jsonCaller(() => server.url);
    expect((await call('POST', '/profiles', { name: 'where' })).status).toBe(201);
  } finally {
    await server.close();
  }
  // The record is where the engine keeps it, and only there.
  const sqlite = new DatabaseSync(join(dataDir, 'store.sqlite'));
  const inSqlite = sqlite
    .prepare("SELECT count(*) AS n FROM records WHERE name = 'where'")
    .get() as {
    n: number;
  };
  sqlite.close();
  expect(inSqlite.n).toBe(onPostgres ? 0 : 1);
  if (onPostgres) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl });
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM xb_records WHERE name = 'where'",
    );
    await pool.end();
    expect(rows[0].n).toBe(1);
  }
});
