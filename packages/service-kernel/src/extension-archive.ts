import { type ErrorDetail, INVALID_INPUT, LIMITS, REQUIRED_MANIFEST_KEYS } from '@x/types';
import { unzipSync } from 'fflate';
import { ServiceError } from './service-error.js';

/** Largest manifest.json read, in bytes: a manifest is a few kilobytes. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

function invalidArchive(message: string): ServiceError {
  const detail: ErrorDetail = { code: INVALID_INPUT, message: `file: ${message}` };
  return new ServiceError('bad_request', `The extension archive is invalid: ${message}.`, {
    details: [detail],
  });
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

/**
 * Checks an uploaded extension archive as contract.md says: a zip no larger than 50 MiB, whose
 * entries stay inside its root, that unpacks to at most 200 MiB in at most 10,000 entries (zip
 * bombs are judged by the sizes the archive declares), with a manifest.json at its root that
 * parses as JSON and has `manifest_version`, `name` and `version`. Throws the ServiceError to send.
 */
export function checkExtensionArchive(archive: Uint8Array): void {
  if (archive.byteLength > LIMITS.extensionArchiveBytes) {
    throw new ServiceError(
      'payload_too_large',
      `The extension archive is larger than ${LIMITS.extensionArchiveBytes} bytes.`,
    );
  }
  let entries = 0;
  let uncompressed = 0;
  let escaping: string | undefined;
  let manifestSize: number | undefined;
  let unpacked: Record<string, Uint8Array>;
  try {
    unpacked = unzipSync(archive, {
      filter(file) {
        entries++;
        uncompressed += file.originalSize;
        if (escapesRoot(file.name)) escaping ??= file.name;
        if (file.name === 'manifest.json') manifestSize = file.originalSize;
        // Only the manifest is inflated; the rest is judged by its declared sizes.
        return file.name === 'manifest.json' && file.originalSize <= MAX_MANIFEST_BYTES;
      },
    });
  } catch {
    // fflate reads the central directory first: no entry seen means no readable zip at all.
    throw invalidArchive(
      entries === 0 ? 'it is not a zip archive, or it is truncated' : 'it is corrupt',
    );
  }
  if (entries > LIMITS.extensionEntries) {
    throw new ServiceError(
      'payload_too_large',
      `The extension archive has more than ${LIMITS.extensionEntries} entries.`,
    );
  }
  if (uncompressed > LIMITS.extensionUncompressedBytes) {
    throw new ServiceError(
      'payload_too_large',
      `The extension archive unpacks to more than ${LIMITS.extensionUncompressedBytes} bytes.`,
    );
  }
  if (escaping !== undefined)
    throw invalidArchive(`entry "${escaping}" would be written outside the extension folder`);
  const manifestBytes = unpacked['manifest.json'];
  if (manifestSize === undefined || entries === 0)
    throw invalidArchive('manifest.json is missing at the root of the archive');
  if (!manifestBytes) throw invalidArchive('manifest.json is too large');
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder().decode(manifestBytes));
  } catch {
    throw invalidArchive('manifest.json is not valid JSON');
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw invalidArchive('manifest.json must hold a JSON object');
  }
  const missing = REQUIRED_MANIFEST_KEYS.filter((key) => !(key in manifest));
  if (missing.length > 0) throw invalidArchive(`manifest.json lacks ${missing.join(', ')}`);
}
