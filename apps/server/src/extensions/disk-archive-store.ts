import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, openAsBlob, readdirSync, renameSync, rmSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveStore } from '@x/service-kernel';
import type { BlobStore } from '../store/blob-store.js';
import { checkArchive, writeArchive } from './archive-store.js';

/** An archive's key in the blob store. */
const blobKey = (sha256: string) => `extensions/${sha256}.zip`;

/** Names of the work folders uploads are checked and unpacked in. */
const WORK_PREFIX = '.upload-';

/**
 * Extension archives on disk: each is stored once under its SHA-256 (`<data
 * dir>/extensions/<sha>.zip`), unpacked beside it for Chromium. Archives are streamed through
 * disk, never held in memory whole; a refused or interrupted upload leaves no file behind. With
 * a blob store (PostgreSQL) the archive is kept there too, and a server that does not have it
 * on its disk fetches it from there, checks it and unpacks it the first time it is needed.
 */
export class DiskArchiveStore implements ArchiveStore {
  readonly #folder: string;
  readonly #blobs: BlobStore | undefined;

  constructor(dataDir: string, blobs?: BlobStore) {
    this.#blobs = blobs;
    this.#folder = join(dataDir, 'extensions');
    mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
    // Work folders of uploads a crash cut short.
    for (const entry of readdirSync(this.#folder)) {
      if (entry.startsWith(WORK_PREFIX))
        rmSync(join(this.#folder, entry), { recursive: true, force: true });
    }
  }

  /**
   * The archive is copied to a work folder while it is hashed, checked from disk, unpacked (each
   * entry held to its declared size) and renamed into place under its SHA-256. The work folder
   * goes whatever happens.
   */
  async store(file: Blob): Promise<{ key: string; sizeBytes: number; sha256: string }> {
    const work = join(this.#folder, `${WORK_PREFIX}${randomUUID()}`);
    await mkdir(work, { mode: 0o700 });
    try {
      const { sha256, size } = await writeArchive(file, join(work, 'archive.zip'));
      const archive = await checkArchive(join(work, 'archive.zip'));
      try {
        if (!this.#isStored(sha256)) {
          await archive.unpack(join(work, 'unpacked'));
          this.#place(sha256, work);
        }
      } finally {
        archive.close();
      }
      await this.#blobs?.put(blobKey(sha256), this.#archivePath(sha256));
      return { key: sha256, sizeBytes: size, sha256 };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /**
   * Makes sure the archive and its unpacked files are on this server's disk: from the blob
   * store when they are not (checked and unpacked as an upload is). Does nothing without one.
   */
  async ready(key: string): Promise<void> {
    if (this.#isStored(key) || !this.#blobs) return;
    const work = join(this.#folder, `${WORK_PREFIX}${randomUUID()}`);
    await mkdir(work, { mode: 0o700 });
    try {
      if (!(await this.#blobs.fetch(blobKey(key), join(work, 'archive.zip')))) return;
      const archive = await checkArchive(join(work, 'archive.zip'));
      try {
        await archive.unpack(join(work, 'unpacked'));
        if (!this.#isStored(key)) this.#place(key, work);
      } finally {
        archive.close();
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async open(key: string): Promise<Blob> {
    await this.ready(key);
    return openAsBlob(this.#archivePath(key), { type: 'application/zip' });
  }

  async remove(key: string): Promise<void> {
    rmSync(this.#archivePath(key), { force: true });
    rmSync(this.unpackedPath(key), { recursive: true, force: true });
    await this.#blobs?.remove(blobKey(key));
  }

  /** The host folder Chromium loads an extension from. */
  unpackedPath(key: string): string {
    return join(this.#folder, key);
  }

  #archivePath(key: string): string {
    return join(this.#folder, `${key}.zip`);
  }

  #isStored(sha256: string): boolean {
    return existsSync(this.#archivePath(sha256)) && existsSync(this.unpackedPath(sha256));
  }

  /**
   * Renames a work folder's unpacked files, then its archive, into place. Another upload of the
   * same archive may have placed them first: then theirs stay, being the same.
   */
  #place(sha256: string, work: string): void {
    try {
      renameSync(join(work, 'unpacked'), this.unpackedPath(sha256));
    } catch (error) {
      if (!existsSync(this.unpackedPath(sha256))) throw error;
    }
    renameSync(join(work, 'archive.zip'), this.#archivePath(sha256));
  }
}
