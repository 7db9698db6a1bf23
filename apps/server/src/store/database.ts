import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sealDataDirectory } from './data-directory.js';

/** The schema, applied in order; each entry runs once, recorded in `PRAGMA user_version`. */
export const MIGRATIONS = [
  `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE invocations (id TEXT PRIMARY KEY, record TEXT NOT NULL, created_at TEXT NOT NULL);
   CREATE TABLE browsers (
     id TEXT PRIMARY KEY,
     record TEXT NOT NULL,
     pid INTEGER,
     invocation_id TEXT,
     created_at TEXT NOT NULL,
     deleted_at TEXT
   );
   CREATE INDEX browsers_invocation ON browsers (invocation_id);
   CREATE TABLE idempotency (
     scope TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     stored_at INTEGER NOT NULL,
     status INTEGER NOT NULL,
     headers TEXT NOT NULL,
     body BLOB,
     PRIMARY KEY (scope, key)
   );`,
  `CREATE TABLE pools (id TEXT PRIMARY KEY, name TEXT UNIQUE, config TEXT NOT NULL, created_at TEXT NOT NULL);`,
  `CREATE TABLE replays (id TEXT PRIMARY KEY, browser_id TEXT NOT NULL, record TEXT NOT NULL, file TEXT NOT NULL);
   CREATE INDEX replays_browser ON replays (browser_id);`,
  `CREATE TABLE extensions (id TEXT PRIMARY KEY, name TEXT UNIQUE, sha256 TEXT NOT NULL, record TEXT NOT NULL);`,
  // One table for every kind of record, as the service model keeps them; the rows of the tables
  // above move into it, in their order.
  `CREATE TABLE records (
     kind TEXT NOT NULL,
     id TEXT NOT NULL,
     parent TEXT,
     name TEXT,
     is_open INTEGER NOT NULL DEFAULT 0,
     value TEXT NOT NULL,
     PRIMARY KEY (kind, id)
   );
   CREATE INDEX records_parent ON records (kind, parent);
   CREATE INDEX records_name ON records (kind, name);
   CREATE INDEX records_open ON records (kind, is_open);
   INSERT INTO records (kind, id, parent, is_open, value)
     SELECT 'browsers', id, invocation_id, deleted_at IS NULL, record FROM browsers ORDER BY rowid;
   INSERT INTO records (kind, id, value)
     SELECT 'invocations', id, record FROM invocations ORDER BY rowid;
   INSERT INTO records (kind, id, name, value)
     SELECT 'pools', id, name, CASE WHEN name IS NULL
       THEN json_object('id', id, 'created_at', created_at, 'config', json(config))
       ELSE json_object('id', id, 'name', name, 'created_at', created_at, 'config', json(config)) END
     FROM pools ORDER BY rowid;
   INSERT INTO records (kind, id, parent, is_open, value)
     SELECT 'replays', id, browser_id, json_extract(record, '$.finished_at') IS NULL, record
     FROM replays ORDER BY rowid;
   INSERT INTO records (kind, id, name, value)
     SELECT 'extensions', id, name, json_object('record', json(record), 'key', sha256)
     FROM extensions ORDER BY rowid;
   DROP TABLE browsers; DROP TABLE invocations; DROP TABLE pools; DROP TABLE replays;
   DROP TABLE extensions;`,
  // Idempotency answers are pruned by age and count as the server runs.
  `CREATE INDEX idempotency_stored_at ON idempotency (stored_at);`,
  // A name is unique among its kind in the store itself, whatever calls race to take it.
  `DROP INDEX records_name;
   CREATE UNIQUE INDEX records_name ON records (kind, name);`,
  // Projects: every record belongs to a scope (a project's id, or '' for the organization's own
  // records); what was kept before belongs to the default project. Names are unique per scope.
  // The audit log, newest read first.
  `ALTER TABLE records ADD COLUMN scope TEXT NOT NULL DEFAULT 'default';
   DROP INDEX records_name;
   CREATE UNIQUE INDEX records_name ON records (kind, scope, name);
   DROP INDEX records_parent;
   CREATE INDEX records_parent ON records (kind, scope, parent);
   DROP INDEX records_open;
   CREATE INDEX records_open ON records (kind, scope, is_open);
   CREATE TABLE audit_log (
     timestamp TEXT NOT NULL,
     id TEXT NOT NULL,
     project TEXT,
     value TEXT NOT NULL,
     PRIMARY KEY (timestamp, id)
   ) WITHOUT ROWID;`,
];

/**
 * Opens (creating when new) the store in `dataDir`, with every migration applied (up to `upTo`
 * of them: the tests make a store as an earlier version left it).
 */
export function openDatabase(dataDir: string, upTo = MIGRATIONS.length): DatabaseSync {
  sealDataDirectory(dataDir);
  const database = new DatabaseSync(join(dataDir, 'store.sqlite'));
  // WAL lets reads go on while a write commits; a crash loses at most the last transaction.
  database.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  const { user_version: version } = database.prepare('PRAGMA user_version').get() as {
    user_version: number;
  };
  if (version > MIGRATIONS.length)
    throw new Error(
      `The store in ${dataDir} was written by a newer xb-server (schema ${version}; this one knows ${MIGRATIONS.length}): start that version, or restore a backup.`,
    );
  for (const [index, migration] of MIGRATIONS.entries()) {
    if (index < version || index >= upTo) continue;
    database.exec('BEGIN');
    try {
      database.exec(migration);
      database.exec(`PRAGMA user_version = ${index + 1}`);
      database.exec('COMMIT');
    } catch (error) {
      database.exec('ROLLBACK');
      throw error;
    }
  }
  return database;
}

/** A setting kept in the store, made by `create` the first time it is asked for. */
export function storedSetting(database: DatabaseSync, key: string, create: () => string): string {
  const row = database.prepare('SELECT value FROM settings WHERE key = ?').get(key) as
    | { value: string }
    | undefined;
  if (row) return row.value;
  const value = create();
  database.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(key, value);
  return value;
}

/** Sets a value of the settings table, replacing the one before. */
export function storeSetting(database: DatabaseSync, key: string, value: string): void {
  database
    .prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    )
    .run(key, value);
}
