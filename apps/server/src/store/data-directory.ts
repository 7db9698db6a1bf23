import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

/** The folders of the data directory: browsers' instances, uploads, extensions, replays, profiles. */
const FOLDERS = ['instances', 'uploads', 'extensions', 'replays', 'profiles'];

/** Its files that hold secrets or records: the store (with its WAL) and the generated token. */
const FILES = [
  'store.sqlite',
  'store.sqlite-wal',
  'store.sqlite-shm',
  'token',
  'server.lock',
  'server.owner.json',
];

/**
 * Seals the data directory, whatever made it or its files: the directory and its folders 0700,
 * the store and the token 0600, so that no other user of the host (a browser's sandbox user
 * among them) can read a secret there. The store is made 0600 before SQLite opens it, so its WAL
 * and shared-memory files, which SQLite makes with the store's mode, are too.
 */
export function sealDataDirectory(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  for (const folder of FOLDERS) {
    const path = join(dataDir, folder);
    if (existsSync(path)) chmodSync(path, 0o700);
  }
  const store = join(dataDir, 'store.sqlite');
  if (!existsSync(store)) closeSync(openSync(store, 'a', 0o600));
  for (const file of FILES) {
    const path = join(dataDir, file);
    if (existsSync(path)) chmodSync(path, 0o600);
  }
}
