import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** Who holds a data directory, as its holder wrote it down. */
export interface LockHolder {
  readonly pid: number;
  readonly started_at: string;
  readonly url?: string;
}

/** Another server holds the data directory: nothing of it was touched. */
export class DataDirInUseError extends Error {
  readonly holder: LockHolder | undefined;

  constructor(dataDir: string, holder: LockHolder | undefined) {
    const who = holder
      ? `server pid ${holder.pid}${holder.url ? ` at ${holder.url}` : ''}, started ${holder.started_at}`
      : 'another server';
    super(
      `The data directory ${dataDir} is in use by ${who}. Stop it, or point XB_DATA_DIR elsewhere.`,
    );
    this.name = 'DataDirInUseError';
    this.holder = holder;
  }
}

/**
 * One server per data directory. The lock is an exclusive SQLite lock (an OS file lock) held on
 * `server.lock` for the server's whole life: the kernel lets it go when the process ends however
 * it ends, so a crash leaves no stale lock, and a second server fails at once, before it reads or
 * changes anything. Who holds it is written beside, in `server.owner.json`, for that message.
 */
export class DataDirLock {
  readonly #database: DatabaseSync;
  readonly #ownerPath: string;
  readonly #startedAt = new Date().toISOString();

  private constructor(database: DatabaseSync, ownerPath: string) {
    this.#database = database;
    this.#ownerPath = ownerPath;
  }

  /** Takes the lock of `dataDir` (made if missing), or throws DataDirInUseError. */
  static take(dataDir: string): DataDirLock {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const ownerPath = join(dataDir, 'server.owner.json');
    const database = new DatabaseSync(join(dataDir, 'server.lock'), { timeout: 0 });
    try {
      database.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;');
    } catch (error) {
      database.close();
      if (!/locked|busy/i.test((error as Error).message)) throw error;
      throw new DataDirInUseError(dataDir, readHolder(ownerPath));
    }
    const lock = new DataDirLock(database, ownerPath);
    lock.describe();
    return lock;
  }

  /** Writes down who holds the lock: this process, and its URL once it listens. */
  describe(url?: string): void {
    const holder: LockHolder = { pid: process.pid, started_at: this.#startedAt, url };
    writeFileSync(this.#ownerPath, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  }

  /** Lets the data directory go (shutdown). */
  release(): void {
    rmSync(this.#ownerPath, { force: true });
    this.#database.close();
  }
}

function readHolder(path: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
  } catch {
    return undefined; // Written a moment later by a server still starting, or by none.
  }
}
