import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sealDataDirectory } from './data-directory.js';

/** The schema, applied in order; each entry runs once, recorded in `PRAGMA user_version`. */
const MIGRATIONS = [
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
];

/** Opens (creating when new) the store in `dataDir`, with every migration applied. */
export function openDatabase(dataDir: string): DatabaseSync {
  sealDataDirectory(dataDir);
  const database = new DatabaseSync(join(dataDir, 'store.sqlite'));
  // WAL lets reads go on while a write commits; a crash loses at most the last transaction.
  database.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  const { user_version: version } = database.prepare('PRAGMA user_version').get() as {
    user_version: number;
  };
  for (const [index, migration] of MIGRATIONS.entries()) {
    if (index < version) continue;
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
