import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, openAsBlob, readdirSync, renameSync, rmSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { createIdGenerator, notFound, ServiceError } from '@x/service-kernel';
import { type Extension, formatTimestamp } from '@x/types';
import { checkArchive, writeArchive } from './archive-store.js';

interface Row {
  id: string;
  sha256: string;
  record: string;
}

const nextId = createIdGenerator();

/** Names of the work folders uploads are checked and unpacked in. */
const WORK_PREFIX = '.upload-';

/**
 * Uploaded extensions: each archive is checked as the contract says, stored once under its
 * SHA-256 (`<data dir>/extensions/<sha>.zip`, unpacked beside it for Chromium), with its record
 * in the store. Archives are streamed through disk, never held in memory whole; a rejected or
 * interrupted upload leaves no file behind.
 */
export class ExtensionService {
  readonly #database: DatabaseSync;
  readonly #folder: string;

  constructor(database: DatabaseSync, dataDir: string) {
    this.#database = database;
    this.#folder = join(dataDir, 'extensions');
    mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
    // Work folders of uploads a crash cut short.
    for (const entry of readdirSync(this.#folder)) {
      if (entry.startsWith(WORK_PREFIX)) {
        rmSync(join(this.#folder, entry), { recursive: true, force: true });
      }
    }
  }

  /**
   * Stores an upload: the archive is copied to a work folder while it is hashed, checked from
   * disk, unpacked (each entry held to its declared size) and renamed into place under its
   * SHA-256; nothing is held in memory whole. The work folder goes whatever happens, so a refused
   * or interrupted upload leaves no file behind.
   */
  async upload(file: Blob, name: string | undefined): Promise<Extension> {
    const work = join(this.#folder, `${WORK_PREFIX}${randomUUID()}`);
    await mkdir(work, { mode: 0o700 });
    try {
      const { sha256, size } = await writeArchive(file, join(work, 'archive.zip'));
      const archive = await checkArchive(join(work, 'archive.zip'));
      try {
        this.#assertNameFree(name);
        if (!this.#isStored(sha256)) {
          await archive.unpack(join(work, 'unpacked'));
          this.#place(sha256, work);
        }
      } finally {
        archive.close();
      }
      const record: Extension = {
        id: nextId('ext'),
        created_at: formatTimestamp(new Date()),
        size_bytes: size,
      };
      if (name !== undefined) record.name = name;
      try {
        this.#database
          .prepare('INSERT INTO extensions (id, name, sha256, record) VALUES (?, ?, ?, ?)')
          .run(record.id, name ?? null, sha256, JSON.stringify(record));
      } catch (error) {
        this.#assertNameFree(name); // Another upload took the name meanwhile: 409, not 500.
        throw error;
      }
      return record;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  list(): Extension[] {
    return (
      this.#database.prepare('SELECT record FROM extensions ORDER BY rowid').all() as {
        record: string;
      }[]
    ).map((row) => JSON.parse(row.record) as Extension);
  }

  /** The archive as uploaded, read from disk as it is sent. */
  download(idOrName: string): Promise<Blob> {
    return openAsBlob(this.#archivePath(this.#find(idOrName).sha256), { type: 'application/zip' });
  }

  delete(idOrName: string): void {
    const row = this.#find(idOrName);
    this.#database.prepare('DELETE FROM extensions WHERE id = ?').run(row.id);
    // The files go once no other extension has the same archive.
    if (!this.#database.prepare('SELECT 1 FROM extensions WHERE sha256 = ?').get(row.sha256)) {
      rmSync(this.#archivePath(row.sha256), { force: true });
      rmSync(this.#unpackedPath(row.sha256), { recursive: true, force: true });
    }
  }

  /**
   * The unpacked folders of the extensions a browser names (404 for one that is not there), and
   * marks them used now.
   */
  load(references: readonly { id?: string; name?: string }[]): string[] {
    return references.map((reference) => {
      const row = this.#find((reference.id ?? reference.name) as string);
      const record = {
        ...(JSON.parse(row.record) as Extension),
        last_used_at: formatTimestamp(new Date()),
      };
      this.#database
        .prepare('UPDATE extensions SET record = ? WHERE id = ?')
        .run(JSON.stringify(record), row.id);
      return this.#unpackedPath(row.sha256);
    });
  }

  /** Checks that every extension named exists; 404 for the first that does not. */
  assertExist(references: readonly { id?: string; name?: string }[]): void {
    for (const reference of references) this.#find((reference.id ?? reference.name) as string);
  }

  #find(idOrName: string): Row {
    const row = (this.#database
      .prepare('SELECT id, sha256, record FROM extensions WHERE id = ?')
      .get(idOrName) ??
      this.#database
        .prepare('SELECT id, sha256, record FROM extensions WHERE name = ?')
        .get(idOrName)) as Row | undefined;
    if (!row) throw notFound('extension', idOrName);
    return row;
  }

  #archivePath(sha256: string): string {
    return join(this.#folder, `${sha256}.zip`);
  }

  #unpackedPath(sha256: string): string {
    return join(this.#folder, sha256);
  }

  #assertNameFree(name: string | undefined): void {
    if (
      name !== undefined &&
      this.#database.prepare('SELECT 1 FROM extensions WHERE name = ?').get(name)
    ) {
      throw new ServiceError('conflict', `An extension named "${name}" already exists.`);
    }
  }

  #isStored(sha256: string): boolean {
    return existsSync(this.#archivePath(sha256)) && existsSync(this.#unpackedPath(sha256));
  }

  /**
   * Renames a work folder's unpacked files, then its archive, into place. Another upload of the
   * same archive may have placed them first: then theirs stay, being the same.
   */
  #place(sha256: string, work: string): void {
    try {
      renameSync(join(work, 'unpacked'), this.#unpackedPath(sha256));
    } catch (error) {
      if (!existsSync(this.#unpackedPath(sha256))) throw error;
    }
    renameSync(join(work, 'archive.zip'), this.#archivePath(sha256));
  }
}
