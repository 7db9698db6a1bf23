import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import {
  checkExtensionArchive,
  createIdGenerator,
  notFound,
  ServiceError,
} from '@x/service-kernel';
import { type Extension, formatTimestamp } from '@x/types';
import { unzipSync } from 'fflate';

interface Row {
  id: string;
  sha256: string;
  record: string;
}

const nextId = createIdGenerator();

/**
 * Uploaded extensions: each archive is checked as the contract says, stored once under its
 * SHA-256 (`<data dir>/extensions/<sha>.zip`, unpacked beside it for Chromium), with its record
 * in the store. A rejected upload leaves no file behind.
 */
export class ExtensionService {
  readonly #database: DatabaseSync;
  readonly #folder: string;

  constructor(database: DatabaseSync, dataDir: string) {
    this.#database = database;
    this.#folder = join(dataDir, 'extensions');
    mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
  }

  async upload(file: Blob, name: string | undefined): Promise<Extension> {
    const archive = new Uint8Array(await file.arrayBuffer());
    checkExtensionArchive(archive);
    if (
      name !== undefined &&
      this.#database.prepare('SELECT 1 FROM extensions WHERE name = ?').get(name)
    ) {
      throw new ServiceError('conflict', `An extension named "${name}" already exists.`);
    }
    const sha256 = createHash('sha256').update(archive).digest('hex');
    this.#store(sha256, archive);
    const record: Extension = {
      id: nextId('ext'),
      created_at: formatTimestamp(new Date()),
      size_bytes: archive.byteLength,
    };
    if (name !== undefined) record.name = name;
    this.#database
      .prepare('INSERT INTO extensions (id, name, sha256, record) VALUES (?, ?, ?, ?)')
      .run(record.id, name ?? null, sha256, JSON.stringify(record));
    return record;
  }

  list(): Extension[] {
    return (
      this.#database.prepare('SELECT record FROM extensions ORDER BY rowid').all() as {
        record: string;
      }[]
    ).map((row) => JSON.parse(row.record) as Extension);
  }

  /** The archive as uploaded. */
  download(idOrName: string): Uint8Array {
    return readFileSync(this.#archivePath(this.#find(idOrName).sha256));
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

  /** Writes the archive and its unpacked files, each to a temporary name renamed into place. */
  #store(sha256: string, archive: Uint8Array): void {
    if (existsSync(this.#archivePath(sha256)) && existsSync(this.#unpackedPath(sha256))) return;
    const temporary = join(this.#folder, `.${sha256}.${process.pid}.partial`);
    try {
      const files = unzipSync(archive);
      for (const [name, content] of Object.entries(files)) {
        if (name.endsWith('/')) continue;
        const target = normalize(join(temporary, 'unpacked', name));
        // checkExtensionArchive refused escaping entries already; this keeps it so.
        if (!target.startsWith(join(temporary, 'unpacked')))
          throw new ServiceError('bad_request', `Entry "${name}" escapes the archive.`);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, content);
      }
      writeFileSync(join(temporary, 'archive.zip'), archive);
      renameSync(join(temporary, 'unpacked'), this.#unpackedPath(sha256));
      renameSync(join(temporary, 'archive.zip'), this.#archivePath(sha256));
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  }
}
