import { type ErrorDetail, INVALID_INPUT, LIMITS, REQUIRED_MANIFEST_KEYS } from '@x/types';
import { unzipSync } from 'fflate';
import { ServiceError } from '../service-error.js';

/** Largest manifest.json read, in bytes: a manifest is a few kilobytes. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/** An entry of an archive as its central directory declares it. */
export interface ArchiveEntry {
  readonly name: string;
  readonly uncompressedSize: number;
}

/**
 * What an archive is, for the errors about it: the same rules hold for an extension and for a zip
 * unpacked onto an instance (upload_zip); only the words and the form part differ.
 */
export interface ArchiveKind {
  /** What it is called: `extension archive`. */
  readonly noun: string;
  /** The form part it came in, as error details name it. */
  readonly part: string;
  /** Where it unpacks, for an entry that would land outside. */
  readonly root: string;
}

/** An extension's archive: the `file` part of POST /extensions. */
export const EXTENSION_ARCHIVE: ArchiveKind = {
  noun: 'extension archive',
  part: 'file',
  root: 'the extension folder',
};

/** A deployment's archive: the `file` part of POST /deployments. */
export const APP_ARCHIVE: ArchiveKind = {
  noun: 'app archive',
  part: 'file',
  root: 'the app folder',
};

/** The 400 for an archive that breaks a rule; the detail names the form part. */
export function invalidArchive(message: string, kind = EXTENSION_ARCHIVE): ServiceError {
  const detail: ErrorDetail = { code: INVALID_INPUT, message: `${kind.part}: ${message}` };
  return new ServiceError('bad_request', `The ${kind.noun} is invalid: ${message}.`, {
    details: [detail],
  });
}

/** The 413 for an archive larger than 50 MiB. */
export function archiveTooLarge(kind = EXTENSION_ARCHIVE): ServiceError {
  return new ServiceError(
    'payload_too_large',
    `The ${kind.noun} is larger than ${LIMITS.extensionArchiveBytes} bytes.`,
  );
}

/** The 413 for an archive of more entries than allowed: judged before the entries are read. */
export function tooManyEntries(kind = EXTENSION_ARCHIVE): ServiceError {
  return new ServiceError(
    'payload_too_large',
    `The ${kind.noun} has more than ${LIMITS.extensionEntries} entries.`,
  );
}

/** Whether an entry name would land outside the extension's folder when unpacked. */
function escapesRoot(name: string): boolean {
  const normalized = name.replaceAll('\\', '/');
  return (
    normalized.startsWith('/') ||
    /^[A-Za-z]:/.test(normalized) ||
    normalized.split('/').some((segment) => segment === '..')
  );
}

/** Longest name of one folder or file on the file systems archives unpack to (NAME_MAX). */
const MAX_SEGMENT_BYTES = 255;

/** Why an entry's name cannot be unpacked as it is, if it cannot: too long, or with a NUL. */
function unusableName(name: string): string | undefined {
  const bytes = Buffer.byteLength(name);
  if (bytes > LIMITS.archiveEntryNameBytes) {
    return `an entry's name is ${bytes} bytes long, more than ${LIMITS.archiveEntryNameBytes}`;
  }
  if (name.includes('\0')) return "an entry's name holds a NUL character";
  const long = name
    .split(/[\\/]/)
    .find((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES);
  if (long !== undefined) {
    return `entry "${name.slice(0, 80)}…" has a folder or file name longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return undefined;
}

/**
 * Judges an archive by the entries its central directory declares: at most 10,000 entries
 * unpacking to at most 200 MiB (413; zip bombs are judged by the declared sizes, which an
 * unpacker must then hold each entry to), names that can be unpacked (at most 1,024 bytes, 255
 * per folder or file, no NUL), none escaping the root (400).
 */
export function checkZipEntries(entries: readonly ArchiveEntry[], kind = EXTENSION_ARCHIVE): void {
  if (entries.length > LIMITS.extensionEntries) throw tooManyEntries(kind);
  const uncompressed = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (uncompressed > LIMITS.extensionUncompressedBytes) {
    throw new ServiceError(
      'payload_too_large',
      `The ${kind.noun} unpacks to more than ${LIMITS.extensionUncompressedBytes} bytes.`,
    );
  }
  for (const entry of entries) {
    const problem = unusableName(entry.name);
    if (problem !== undefined) throw invalidArchive(problem, kind);
  }
  const escaping = entries.find((entry) => escapesRoot(entry.name));
  if (escaping !== undefined) {
    throw invalidArchive(`entry "${escaping.name}" would be written outside ${kind.root}`, kind);
  }
}

/**
 * Judges an extension archive by the entries its central directory declares, as contract.md
 * says: checkZipEntries, and a manifest.json at the root (400). Returns the manifest's entry, to
 * be read and given to checkManifest.
 */
export function checkArchiveEntries(entries: readonly ArchiveEntry[]): ArchiveEntry {
  checkZipEntries(entries);
  const manifest = entries.find((entry) => entry.name === 'manifest.json');
  if (!manifest) throw invalidArchive('manifest.json is missing at the root of the archive');
  if (manifest.uncompressedSize > MAX_MANIFEST_BYTES)
    throw invalidArchive('manifest.json is too large');
  return manifest;
}

/** Checks manifest.json: JSON, an object, with `manifest_version`, `name` and `version` (400). */
export function checkManifest(bytes: Uint8Array): void {
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw invalidArchive('manifest.json is not valid JSON');
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw invalidArchive('manifest.json must hold a JSON object');
  }
  const missing = REQUIRED_MANIFEST_KEYS.filter((key) => !(key in manifest));
  if (missing.length > 0) throw invalidArchive(`manifest.json lacks ${missing.join(', ')}`);
}

/**
 * Checks an uploaded extension archive held in memory as contract.md says: a zip no larger than
 * 50 MiB, then checkArchiveEntries and checkManifest. Throws the ServiceError to send.
 */
export function checkExtensionArchive(archive: Uint8Array): void {
  if (archive.byteLength > LIMITS.extensionArchiveBytes) throw archiveTooLarge();
  const entries: ArchiveEntry[] = [];
  let unpacked: Record<string, Uint8Array>;
  try {
    unpacked = unzipSync(archive, {
      filter(file) {
        entries.push({ name: file.name, uncompressedSize: file.originalSize });
        // Only the manifest is inflated; the rest is judged by its declared sizes.
        return file.name === 'manifest.json' && file.originalSize <= MAX_MANIFEST_BYTES;
      },
    });
  } catch {
    // fflate reads the central directory first: no entry seen means no readable zip at all.
    throw invalidArchive(
      entries.length === 0 ? 'it is not a zip archive, or it is truncated' : 'it is corrupt',
    );
  }
  checkArchiveEntries(entries);
  checkManifest(unpacked['manifest.json'] ?? new Uint8Array());
}
