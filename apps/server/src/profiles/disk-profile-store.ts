import { randomUUID } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable as NodeReadable, pipeline, type Readable } from 'node:stream';
import { createZstdCompress } from 'node:zlib';
import type { ProfileStore } from '@x/service-kernel';
import type { ProfileArchiveFormat } from '@x/types';
import { streamOfReadable } from '../http/readable-stream.js';
import type { BlobStore } from '../store/blob-store.js';

/** A profile's key in the blob store. */
const blobKey = (profileId: string) => `profiles/${profileId}.tar`;

/** An empty tar: two zero blocks. */
const EMPTY_TAR = new Uint8Array(1024);

/** A save larger than the profile store takes. */
export class ProfileTooLarge extends Error {
  constructor(maxBytes: number) {
    super(`The profile's data is past ${maxBytes} bytes (XB_MAX_PROFILE_MB): it was not saved.`);
  }
}

/**
 * Profiles' data on the server's disk: one tar per profile (`profiles/<id>.tar`), replaced
 * whole by each save. A save is written under a hidden name, flushed to the disk, then renamed
 * over the last version and the folder flushed: a crash at any point leaves the last version or
 * the new one, never a mix. What a crash left half-written is removed at the next start.
 */
export class DiskProfileStore implements ProfileStore {
  readonly #folder: string;
  readonly #maxBytes: number;
  readonly #blobs: BlobStore | undefined;

  /**
   * With a blob store (PostgreSQL) each save is kept there before it replaces the version on
   * disk, and a server without a profile on its disk fetches it from there when it is needed.
   */
  constructor(dataDir: string, maxBytes: number, blobs?: BlobStore) {
    this.#folder = join(dataDir, 'profiles');
    this.#maxBytes = maxBytes;
    this.#blobs = blobs;
    mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(this.#folder))
      if (name.startsWith('.partial-')) rmSync(join(this.#folder, name), { force: true });
  }

  #path(profileId: string): string {
    return join(this.#folder, `${profileId}.tar`);
  }

  /**
   * A profile's saved tar on this server's disk (fetched from the blob store first when it is
   * there only) and its size, or undefined before its first save.
   */
  async local(
    profileId: string,
  ): Promise<{ readonly path: string; readonly bytes: number } | undefined> {
    const saved = this.#saved(profileId);
    if (saved || !this.#blobs) return saved;
    return (await this.#blobs.fetch(blobKey(profileId), this.#path(profileId)))
      ? this.#saved(profileId)
      : undefined;
  }

  #saved(profileId: string): { readonly path: string; readonly bytes: number } | undefined {
    const path = this.#path(profileId);
    try {
      return { path, bytes: statSync(path).size };
    } catch {
      return undefined;
    }
  }

  /**
   * Writes a tar from `tar` as the profile's new version, whole or not at all: past the size
   * limit, or when the stream fails, the last version stays and nothing else is left.
   */
  async write(profileId: string, tar: Readable): Promise<number> {
    const partial = join(this.#folder, `.partial-${profileId}-${randomUUID()}`);
    const file = await open(partial, 'wx', 0o600);
    let bytes = 0;
    try {
      for await (const chunk of tar as AsyncIterable<Buffer>) {
        bytes += chunk.byteLength;
        if (bytes > this.#maxBytes) throw new ProfileTooLarge(this.#maxBytes);
        await file.write(chunk);
      }
      await file.sync();
      await file.close();
      // Kept in the store before it replaces the version here: a store that cannot take it
      // leaves the last version in both places.
      await this.#blobs?.put(blobKey(profileId), partial);
      await rename(partial, this.#path(profileId));
      const folder = await open(this.#folder, 'r');
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
      return bytes;
    } catch (error) {
      tar.destroy();
      // It may be closed already (a later step failed); the write's own failure is the one told.
      await file.close().catch(() => undefined);
      await rm(partial, { force: true });
      throw error;
    }
  }

  async download(
    profileId: string,
    format: ProfileArchiveFormat,
  ): Promise<ReadableStream<Uint8Array>> {
    const saved = await this.local(profileId);
    const tar: Readable = saved
      ? createReadStream(saved.path)
      : NodeReadable.from([Buffer.from(EMPTY_TAR)]);
    if (format === 'tar') return streamOfReadable(tar);
    const zstd = createZstdCompress();
    // A read that fails fails the download; the caller sees its stream error.
    pipeline(tar, zstd, () => undefined);
    return streamOfReadable(zstd);
  }

  async remove(profileId: string): Promise<void> {
    await rm(this.#path(profileId), { force: true });
    await this.#blobs?.remove(blobKey(profileId));
  }
}
