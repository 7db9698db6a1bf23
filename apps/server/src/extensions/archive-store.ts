import { createWriteStream } from 'node:fs';
import { chmod, mkdir, rename } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  type ArchiveEntry,
  type ArchiveKind,
  archiveTooLarge,
  checkArchiveEntries,
  checkManifest,
  checkZipEntries,
  EXTENSION_ARCHIVE,
  invalidArchive,
  ServiceError,
  tooManyEntries,
} from '@x/service-kernel';
import { LIMITS } from '@x/types';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { measuring, spooledFile } from '../http/multipart-spool.js';

/**
 * Puts an uploaded archive at `target`, returning its SHA-256 and size; 413 past 50 MiB. A file
 * the server spooled to disk is moved there, already hashed; any other is copied as a stream.
 */
export async function writeArchive(
  file: Blob,
  target: string,
  kind: ArchiveKind = EXTENSION_ARCHIVE,
): Promise<{ sha256: string; size: number }> {
  if (file.size > LIMITS.extensionArchiveBytes) throw archiveTooLarge(kind);
  const spooled = spooledFile(file);
  if (spooled) {
    try {
      await rename(spooled.path, target);
      return { sha256: spooled.sha256, size: spooled.size };
    } catch (error) {
      // Another file system (a mount of its own for the store): copied below instead.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    }
  }
  const measure = measuring();
  await pipeline(
    Readable.fromWeb(file.stream() as NodeReadableStream<Uint8Array>),
    measure.stream,
    createWriteStream(target, { flags: 'wx', mode: 0o600 }),
  );
  return measure.digest();
}

/** An archive on disk whose entries passed the contract's checks, ready to be unpacked. */
export interface CheckedArchive {
  /**
   * Unpacks every entry under `folder`, each held to its declared size; 400 if the data is bad.
   * Gives the bytes unpacked.
   */
  unpack(folder: string): Promise<number>;
  /** The entries' names, as the archive declares them. */
  readonly names: readonly string[];
  close(): void;
}

/** Reads an entry whole: only for the manifest, whose declared size is at most 1 MiB. */
async function readEntry(zip: ZipFile, entry: Entry): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Opens a zip on disk and checks it as contract.md says without unpacking it: the entry count
 * from its end record first (a listing of a million entries is never read), then every entry of
 * its central directory (sizes, names escaping the root, and for an extension manifest.json at the
 * root), then the manifest's JSON. Throws the ServiceError to send. The archive is read from disk,
 * never whole.
 */
export async function checkArchive(
  path: string,
  kind: ArchiveKind = EXTENSION_ARCHIVE,
): Promise<CheckedArchive> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, {
      autoClose: false,
      decodeStrings: false, // Names are judged by checkArchiveEntries, not refused before it.
      validateEntrySizes: true,
    });
  } catch {
    throw invalidArchive('it is not a zip archive, or it is truncated', kind);
  }
  try {
    if (zip.entryCount > LIMITS.extensionEntries) throw tooManyEntries(kind);
    const entries: { entry: Entry; declared: ArchiveEntry }[] = [];
    try {
      for await (const entry of zip.eachEntry()) {
        const name = yauzl.getFileNameLowLevel(
          entry.generalPurposeBitFlag,
          entry.fileNameRaw,
          entry.extraFields,
          false,
        );
        entries.push({ entry, declared: { name, uncompressedSize: entry.uncompressedSize } });
      }
    } catch {
      throw invalidArchive('it is corrupt', kind);
    }
    const declared = entries.map((entry) => entry.declared);
    const unreadable = entries.find(({ entry }) => !entry.canDecodeFileData());
    if (kind !== EXTENSION_ARCHIVE) {
      checkZipEntries(declared, kind);
      if (unreadable) throw cannotRead(unreadable.declared.name, kind);
      return {
        unpack: (folder) => unpack(zip, entries, folder, kind),
        names: declared.map((entry) => entry.name),
        close: () => zip.close(),
      };
    }
    const manifest = checkArchiveEntries(declared);
    if (unreadable) throw cannotRead(unreadable.declared.name, kind);
    const manifestEntry = entries.find(({ declared }) => declared === manifest)?.entry as Entry;
    let manifestBytes: Uint8Array;
    try {
      manifestBytes = await readEntry(zip, manifestEntry);
    } catch {
      throw invalidArchive('manifest.json is corrupt');
    }
    checkManifest(manifestBytes);
    return {
      unpack: (folder) => unpack(zip, entries, folder, kind),
      names: declared.map((entry) => entry.name),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function cannotRead(name: string, kind: ArchiveKind): ServiceError {
  return invalidArchive(
    `entry "${name}" is encrypted or compressed in a way that cannot be read`,
    kind,
  );
}

/**
 * Makes `folder` and every folder between it and `root`, each readable by all (0755, whatever
 * the umask); `made` holds those made already, so each is made once per archive.
 */
async function makeReadableFolder(root: string, folder: string, made: Set<string>): Promise<void> {
  if (folder === root || made.has(folder)) return;
  await makeReadableFolder(root, dirname(folder), made);
  await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await chmod(folder, 0o755);
  made.add(folder);
}

async function unpack(
  zip: ZipFile,
  entries: readonly { entry: Entry; declared: ArchiveEntry }[],
  folder: string,
  kind: ArchiveKind,
): Promise<number> {
  let bytes = 0;
  const root = resolve(folder);
  await mkdir(root, { recursive: true });
  // Browsers read them as users of their own, through a read-only bind: readable by all, while
  // on the host nobody but the server reaches them (the extensions folder is 0700).
  await chmod(root, 0o755);
  const made = new Set<string>();
  for (const { entry, declared } of entries) {
    const target = resolve(root, declared.name.replaceAll('\\', '/'));
    // checkArchiveEntries refused names escaping the root already; this keeps it so.
    if (target !== root && !target.startsWith(root + sep)) {
      throw invalidArchive(`entry "${declared.name}" would be written outside ${kind.root}`, kind);
    }
    if (declared.name.endsWith('/')) {
      await makeReadableFolder(root, target, made);
      continue;
    }
    await makeReadableFolder(root, dirname(target), made);
    let output: Writable | undefined;
    try {
      output = createWriteStream(target, { mode: 0o600 });
      // yauzl fails the stream as soon as the data outgrows the declared size: no bomb unpacks.
      await pipeline(await zip.openReadStreamPromise(entry), output);
      await chmod(target, 0o644);
      bytes += entry.uncompressedSize;
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      throw invalidArchive(`entry "${declared.name}" is corrupt or larger than it declares`, kind);
    }
  }
  return bytes;
}
