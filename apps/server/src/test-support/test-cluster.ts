import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { migrate } from '../store/postgres/postgres-schema.js';
import { PostgresCluster } from './postgres-cluster.js';

/**
 * A throw-away PostgreSQL cluster for the tests of one file: started before them, stopped and
 * removed after, with the pools its tests opened. `database()` makes a fresh database and gives
 * its URL; `pool()` a pool on a fresh one (migrated unless told otherwise).
 */
export function useTestCluster() {
  const pools: pg.Pool[] = [];
  let databases = 0;
  const handle = {
    cluster: undefined as unknown as PostgresCluster,
    database: () => handle.cluster.createDatabase(`t${++databases}`),
    async pool(options: { readonly migrated?: boolean } = {}): Promise<pg.Pool> {
      const pool = new pg.Pool({ connectionString: handle.database() });
      // Idle connections are cut when a test halts the cluster, and when it stops.
      pool.on('error', () => undefined);
      pools.push(pool);
      if (options.migrated !== false) await migrate(pool);
      return pool;
    },
  };
  beforeAll(async () => {
    handle.cluster = await PostgresCluster.start();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await handle.cluster?.stop();
  });
  return handle;
}

const keyFiles = new Map<string, string>();

/**
 * The sealing key file of the nodes of the database at `databaseUrl` (`XB_SECRET_KEY_FILE`): one
 * per database, as an operator gives every node of a cluster the same one; made by the first node.
 */
export function clusterKeyFile(databaseUrl: string): string {
  // By the database's name: a node may reach the same database at another address (a gate).
  const database = new URL(databaseUrl).pathname;
  let file = keyFiles.get(database);
  if (!file) {
    file = join(mkdtempSync(join(tmpdir(), 'xb-cluster-key-')), 'secret.key');
    keyFiles.set(database, file);
  }
  return file;
}
