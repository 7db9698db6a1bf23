import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractChecks, runContractCheck } from '@x/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { readConfig } from '../config.js';
import { type RunningServer, startServer } from '../server.js';
import { freePort } from '../test-support/postgres-cluster.js';
import { clusterKeyFile, useTestCluster } from '../test-support/test-cluster.js';

const TOKEN = 'cluster-contract-token';
const READ_ONLY = 'cluster-contract-read-only';
const postgres = useTestCluster();
const nodes: RunningServer[] = [];

beforeAll(async () => {
  const databaseUrl = postgres.database();
  for (let index = 0; index < 3; index++) {
    const port = await freePort();
    nodes.push(
      await startServer(
        readConfig({
          XB_ALLOW_NETWORKS: '127.0.0.1/32',
          XB_DATA_DIR: mkdtempSync(join(tmpdir(), 'xb-cluster-contract-')),
          XB_PORT: String(port),
          XB_NODE_URL: `http://127.0.0.1:${port}`,
          XB_DATABASE_URL: databaseUrl,
          XB_SECRET_KEY_FILE: clusterKeyFile(databaseUrl),
          XB_TOKENS: TOKEN,
          XB_READ_ONLY_TOKENS: READ_ONLY,
          XB_MAX_BROWSERS: '4',
          XB_SPARE_BROWSERS: '1',
        }),
        pino({ level: 'silent' }),
      ),
    );
  }
  // Every node sees the others before the suite begins.
  const deadline = Date.now() + 10_000;
  while (
    nodes.some((node) => node.cluster?.members().filter((m) => m.state === 'up').length !== 3)
  ) {
    if (Date.now() > deadline) throw new Error('the nodes did not see each other');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(nodes.map((node) => node.close()));
}, 120_000);

describe('the contract suite against three nodes, asked through one', () => {
  // Its creates are placed on every node; what another node holds is passed to it: the contract
  // holds through the cluster as through one server.
  for (const check of contractChecks) {
    it(`${check.area}: ${check.name}`, () =>
      runContractCheck(check, {
        baseUrl: (nodes[0] as RunningServer).url,
        token: TOKEN,
        readOnlyToken: READ_ONLY,
      }));
  }
});
