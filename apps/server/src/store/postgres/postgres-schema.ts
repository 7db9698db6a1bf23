import type { Pool, PoolClient } from 'pg';

/**
 * The schema, versioned and forward-only: each entry runs once, in order, in a transaction, and
 * is recorded in `xb_schema`. A server never changes an entry once released; a change is a new
 * entry. Values are kept as text (the JSON as the model wrote it, its key order included).
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE xb_records (
     kind text NOT NULL,
     id text NOT NULL,
     seq bigint GENERATED ALWAYS AS IDENTITY,
     parent text,
     name text,
     is_open boolean NOT NULL DEFAULT false,
     value text NOT NULL,
     PRIMARY KEY (kind, id)
   );
   CREATE UNIQUE INDEX xb_records_name ON xb_records (kind, name);
   CREATE INDEX xb_records_order ON xb_records (kind, seq);
   CREATE INDEX xb_records_parent ON xb_records (kind, parent, seq);
   CREATE INDEX xb_records_open ON xb_records (kind, is_open, seq);
   CREATE TABLE xb_idempotency (
     scope text NOT NULL,
     key text NOT NULL,
     fingerprint text NOT NULL,
     stored_at bigint NOT NULL,
     status integer NOT NULL,
     headers text NOT NULL,
     body bytea,
     PRIMARY KEY (scope, key)
   );
   CREATE INDEX xb_idempotency_stored_at ON xb_idempotency (stored_at);`,
  // Files the records name (extension archives, saved profiles, replay videos), in chunks: a
  // blob names its current generation of chunks, replaced whole by the next put.
  `CREATE TABLE xb_blobs (
     key text PRIMARY KEY,
     generation text NOT NULL,
     size bigint NOT NULL,
     stored_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE TABLE xb_blob_chunks (
     generation text NOT NULL,
     seq integer NOT NULL,
     chunk bytea NOT NULL,
     written_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (generation, seq)
   );`,
  // Projects: every record belongs to a scope (a project's id, or '' for the organization's own
  // records); what was kept before belongs to the default project. Names are unique per scope.
  // The audit log, read newest first.
  `ALTER TABLE xb_records ADD COLUMN scope text NOT NULL DEFAULT 'default';
   DROP INDEX xb_records_name;
   CREATE UNIQUE INDEX xb_records_name ON xb_records (kind, scope, name);
   DROP INDEX xb_records_order;
   CREATE INDEX xb_records_order ON xb_records (kind, scope, seq);
   DROP INDEX xb_records_parent;
   CREATE INDEX xb_records_parent ON xb_records (kind, scope, parent, seq);
   DROP INDEX xb_records_open;
   CREATE INDEX xb_records_open ON xb_records (kind, scope, is_open, seq);
   CREATE TABLE xb_audit_log (
     at timestamptz NOT NULL,
     id text NOT NULL,
     project text,
     value text NOT NULL,
     PRIMARY KEY (at, id)
   );`,
  // Many nodes, one service: each server on the database is a node with a lease it renews; a
  // node whose lease lapsed is lost (its epoch moves on, its sessions are ended by whoever sweeps
  // it). What every node shares (the session-URL secret, the nodes' own secret) is a setting.
  `CREATE TABLE xb_nodes (
     id text PRIMARY KEY,
     url text NOT NULL,
     epoch bigint NOT NULL,
     state text NOT NULL,
     capacity integer NOT NULL,
     running integer NOT NULL DEFAULT 0,
     lease_until timestamptz NOT NULL,
     joined_at timestamptz NOT NULL DEFAULT now(),
     is_swept boolean NOT NULL DEFAULT true
   );
   CREATE TABLE xb_cluster (
     name text PRIMARY KEY,
     value text NOT NULL
   );`,
  // A pool is held by one node; when that node is lost or leaves, another takes it: the pools
  // that moved, and where to. A pool with no row here is held by the node its id names.
  `CREATE TABLE xb_pool_homes (
     pool_id text PRIMARY KEY,
     node text NOT NULL
   );`,
];

/** The advisory lock every server takes to migrate: one at a time, the others wait and skip. */
const MIGRATION_LOCK = 0x78620001;

/** The advisory lock a transaction of the record store holds: transactions run one at a time. */
export const TRANSACTION_LOCK = 0x78620002;

/**
 * Brings the database to the newest schema this server knows (up to `upTo` migrations: the tests
 * make a database as an earlier version left it), under an advisory lock so that servers
 * starting together migrate once. Refuses a database a newer server migrated past this one.
 */
export async function migrate(pool: Pool, upTo = POSTGRES_MIGRATIONS.length): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS xb_schema (
           version integer PRIMARY KEY,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const version = await schemaVersion(client);
      if (version > POSTGRES_MIGRATIONS.length)
        throw new Error(
          `The PostgreSQL store was migrated by a newer xb-server (schema ${version}; this one knows ${POSTGRES_MIGRATIONS.length}): run that version, or restore a backup.`,
        );
      for (let index = version; index < Math.min(upTo, POSTGRES_MIGRATIONS.length); index++) {
        await client.query('BEGIN');
        try {
          await client.query(POSTGRES_MIGRATIONS[index] as string);
          await client.query('INSERT INTO xb_schema (version) VALUES ($1)', [index + 1]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
      return await schemaVersion(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

async function schemaVersion(client: PoolClient): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM xb_schema',
  );
  return rows[0]?.version ?? 0;
}
