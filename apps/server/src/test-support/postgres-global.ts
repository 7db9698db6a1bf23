import { PostgresCluster } from './postgres-cluster.js';

/**
 * vitest's globalSetup for the server suite on PostgreSQL (`XB_TEST_STORE=postgresql`, the
 * `test:postgresql` script): one throw-away cluster for the run, its URL for the workers in
 * `XB_TEST_POSTGRES_URL`, stopped and removed when the run ends. Otherwise nothing.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.XB_TEST_STORE !== 'postgresql') return undefined;
  const cluster = await PostgresCluster.start();
  process.env.XB_TEST_POSTGRES_URL = cluster.url();
  return () => cluster.stop();
}
