import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { LIMITS, REQUIRED_MANIFEST_KEYS } from '@x/types';
import { zipSync } from 'fflate';
import { usageError } from '../cli-error.js';

/** What `xb extensions upload` sends: the archive and its size. */
export interface UploadArchive {
  readonly file: Blob;
  readonly size: number;
  /** Whether it was zipped from a directory. */
  readonly isZippedDirectory: boolean;
}

/** The first bytes of every zip archive (a local file header). */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function checkManifest(text: string, where: string): void {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    throw usageError(`${where} is not valid JSON: fix it so the extension can load.`);
  }
  const missing = REQUIRED_MANIFEST_KEYS.filter(
    (key) => typeof manifest !== 'object' || manifest === null || !(key in manifest),
  );
  if (missing.length > 0)
    throw usageError(
      `${where} lacks ${missing.join(', ')}: add them (see the Chrome extension manifest format).`,
    );
}

/**
 * What a folder upload leaves out unless asked to keep it: version control, installed packages,
 * Finder's litter, and environment files (which hold secrets).
 */
export function isLeftOut(name: string): boolean {
  return (
    name === '.git' || name === 'node_modules' || name === '.DS_Store' || name.startsWith('.env')
  );
}

/** What a folder's walk has gathered so far, bounded as the service bounds an archive. */
export interface Gathered {
  readonly files: Record<string, Uint8Array>;
  count: number;
  bytes: number;
  /** Whether an entry is left out: its name in the archive (`a/b`), and whether a folder. */
  readonly skips: (name: string, isFolder: boolean) => boolean;
  /** The folder as the user named it, for messages. */
  readonly shown: string;
  /** What the archive is, for messages: `an extension`, `an app`. */
  readonly what: string;
  /** Called before a folder's entries are judged (its path on disk, its name in the archive). */
  readonly enter?: (folder: string, name: string) => Promise<void>;
}

/**
 * Gathers the files under `folder` (at `root`) into `gathered`, skipping what it says; symbolic
 * links and special files are left out (they could point outside the folder). Bounded as the
 * service bounds an archive: refused before a file past the bounds is read.
 */
export async function filesOf(root: string, folder: string, gathered: Gathered): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    const name = relative(root, path).split(sep).join('/');
    if (gathered.skips(name, entry.isDirectory())) continue;
    if (entry.isDirectory()) {
      await gathered.enter?.(path, name);
      await filesOf(root, path, gathered);
      continue;
    }
    // Symbolic links and special files are left out: they could point outside the extension.
    if (!entry.isFile()) continue;
    // Checked before each file is read, so a folder far too big is refused, not held in memory.
    const size = (await stat(path)).size;
    gathered.count += 1;
    gathered.bytes += size;
    if (gathered.count > LIMITS.extensionEntries) {
      throw usageError(
        `${gathered.shown} holds more than ${LIMITS.extensionEntries} files, over the service's limit for ${gathered.what}.`,
      );
    }
    if (gathered.bytes > LIMITS.extensionUncompressedBytes) {
      throw usageError(
        `${gathered.shown} holds more than ${LIMITS.extensionUncompressedBytes} bytes, over the service's limit for ${gathered.what}.`,
      );
    }
    gathered.files[name] = new Uint8Array(await readFile(path));
  }
}

/**
 * The archive to upload for `path`: a directory is zipped on the fly, with manifest.json at the
 * root checked first and `.git`, `node_modules`, `.DS_Store` and `.env*` left out unless
 * `includeHidden`; a .zip is sent as it is, read from disk as it goes. Anything else is a
 * usage error that says what to give instead.
 */
export async function uploadArchive(
  cwd: string,
  path: string,
  includeHidden = false,
): Promise<UploadArchive> {
  const absolute = resolve(cwd, path);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(absolute);
  } catch (error) {
    throw usageError(
      `Cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}): give the path of an extension folder or a .zip.`,
    );
  }
  if (info.isDirectory()) {
    let manifest: string;
    try {
      manifest = await readFile(join(absolute, 'manifest.json'), 'utf8');
    } catch {
      throw usageError(
        `${path} has no manifest.json at its root: point at the folder that holds manifest.json.`,
      );
    }
    checkManifest(manifest, `${join(path, 'manifest.json')}`);
    const gathered: Gathered = {
      files: {},
      count: 0,
      bytes: 0,
      skips: (name) => !includeHidden && isLeftOut(name.slice(name.lastIndexOf('/') + 1)),
      shown: path,
      what: 'an extension',
    };
    await filesOf(absolute, absolute, gathered);
    const zipped = zipSync(gathered.files, { level: 6 });
    if (zipped.byteLength > LIMITS.extensionArchiveBytes) {
      throw usageError(
        `${path} zips to ${zipped.byteLength} bytes, over the ${LIMITS.extensionArchiveBytes}-byte limit.`,
      );
    }
    return {
      file: new Blob([zipped as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
      size: zipped.byteLength,
      isZippedDirectory: true,
    };
  }
  if (!info.isFile())
    throw usageError(`${path} is neither a folder nor a file: give an extension folder or a .zip.`);
  const handle = await open(absolute, 'r');
  const head = new Uint8Array(4);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (!ZIP_MAGIC.every((byte, index) => head[index] === byte)) {
    throw usageError(
      `${path} is not a zip archive: give a .zip, or the extension's folder to zip it on the fly.`,
    );
  }
  if (info.size > LIMITS.extensionArchiveBytes) {
    throw usageError(
      `${path} is ${info.size} bytes, over the ${LIMITS.extensionArchiveBytes}-byte limit.`,
    );
  }
  const { fileFromPath } = await import('@x/client/node');
  return {
    file: await fileFromPath(absolute, 'application/zip'),
    size: info.size,
    isZippedDirectory: false,
  };
}

/**
 * The folder name an extension at `path` is loaded under: its folder's or zip's name without
 * `.zip`, with what a name may not hold replaced by `-` (`My Ext.zip` → `My-Ext`).
 */
export function extensionFolderName(path: string): string {
  const base = basename(path.replace(/[\\/]+$/, '')).replace(/\.zip$/i, '');
  const name = base.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 255);
  return name === '' || name === '.' || name === '..' ? 'extension' : name;
}
