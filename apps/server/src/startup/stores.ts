import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { Logger } from 'pino';
import { ClusterNode, newNodeTag } from '../cluster/cluster-node.js';
import type { ServerConfig } from '../config.js';
import { keyFingerprint, loadSecretKey } from '../proxies/secret-key.js';
import { openDatabase, storedSetting } from '../store/database.js';
import {
  postgresServiceStore,
  type ServiceStore,
  sqliteServiceStore,
} from '../store/service-store.js';
import type { Teardown } from './teardown.js';

/** What a server keeps: its data directory's settings, its records, its key, its cluster. */
export interface Stores {
  /** This host's settings of the data directory (sandbox users, subnet, node tag). */
  readonly database: DatabaseSync;
  /** Records, blobs, idempotency answers and the audit log: SQLite, or PostgreSQL. */
  readonly store: ServiceStore;
  /** The key proxy passwords and secrets are sealed with (`XB_SECRET_KEY_FILE`). */
  readonly secretKey: Uint8Array;
  /** This server as a node of one service, on PostgreSQL. */
  readonly cluster: ClusterNode | undefined;
  /** The secret session URLs are signed with: this server's, or its cluster's. */
  readonly jwtSecret: string;
}

/**
 * Stage one: the stores. Settings of this host (its sandbox users' ids, its session subnet, the
 * jwt secret) stay in the data directory; records and idempotency answers go where
 * XB_DATABASE_URL says. On PostgreSQL every server is a node of one service: its ids carry its
 * tag (kept in its data directory), the session URLs' secret is the cluster's.
 */
export async function openStores(
  config: ServerConfig,
  logger: Logger,
  teardown: Teardown,
): Promise<Stores> {
  const database = openDatabase(config.dataDir);
  teardown.add("the data directory's database", () => database.close());
  const store = config.databaseUrl
    ? await postgresServiceStore(config.databaseUrl, logger)
    : sqliteServiceStore(database);
  teardown.add('the record store', () => store.close());
  // Kept in the store, so session URLs stay valid across restarts; only the server reads it.
  let jwtSecret = storedSetting(database, 'jwt_secret', () => randomBytes(32).toString('hex'));
  const secretKey = loadSecretKey(config.secretKeyFile);
  if (secretKey.isNew)
    logger.info(
      { file: config.secretKeyFile },
      'made the key proxy passwords are sealed with: keep it with the data directory, apart from it',
    );
  let cluster: ClusterNode | undefined;
  if (config.databaseUrl) {
    cluster = await ClusterNode.prepare(config.databaseUrl, {
      tag: storedSetting(database, 'node_tag', newNodeTag),
      isUrlGiven: config.nodeUrl !== undefined,
      capacity: config.maxBrowsers,
      logger,
      localJwtSecret: jwtSecret,
      keyFingerprint: keyFingerprint(secretKey.key),
      keyFile: config.secretKeyFile,
    });
    const node = cluster;
    teardown.add('the cluster node', () => node.leave());
    jwtSecret = cluster.jwtSecret;
  }
  return { database, store, secretKey: secretKey.key, cluster, jwtSecret };
}
