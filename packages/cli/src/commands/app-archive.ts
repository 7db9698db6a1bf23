import { readFile, stat } from 'node:fs/promises';
import { join, posix, resolve } from 'node:path';
import { LIMITS } from '@x/types';
import { zipSync } from 'fflate';
import ignore, { type Ignore } from 'ignore';
import { usageError } from '../cli-error.js';
import { filesOf, type Gathered, isLeftOut } from './extension-archive.js';

/** The files an entrypoint is looked for in when none is named, in order. */
export const ENTRYPOINT_CANDIDATES = [
  'index.ts',
  'app.ts',
  'main.ts',
  'index.mts',
  'app.mts',
  'index.js',
  'app.js',
  'index.mjs',
  'app.mjs',
];

/** An app folder zipped for `xb deploy`: the archive, its entrypoint and what it holds. */
export interface AppArchive {
  readonly file: Blob;
  readonly size: number;
  readonly entrypoint: string;
  readonly fileCount: number;
}

/** The `.gitignore` rules of `folder`, if it has any. */
async function rulesOf(folder: string): Promise<Ignore | undefined> {
  try {
    return ignore().add(await readFile(join(folder, '.gitignore'), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Whether `name` (a path in the archive) is ignored by the `.gitignore` files on its way, each
 * judging the path relative to its own folder, as git does.
 */
function isIgnored(
  name: string,
  isFolder: boolean,
  rules: ReadonlyMap<string, Ignore | undefined>,
): boolean {
  const parts = name.split('/');
  for (let depth = 0; depth < parts.length; depth++) {
    const folder = parts.slice(0, depth).join('/');
    const matcher = rules.get(folder);
    if (!matcher) continue;
    const rest = parts.slice(depth).join('/');
    if (matcher.ignores(isFolder ? `${rest}/` : rest)) return true;
  }
  return false;
}

/** The entrypoint: the one named, else package.json's `main`, else the first candidate there. */
async function entrypointOf(
  folder: string,
  shown: string,
  named: string | undefined,
  files: Readonly<Record<string, Uint8Array>>,
): Promise<string> {
  const normal = (path: string) => posix.normalize(path.replaceAll('\\', '/')).replace(/^\.\//, '');
  if (named !== undefined) {
    const entry = normal(named);
    if (!(entry in files)) {
      throw usageError(
        `${named} is not in ${shown} (or is left out by .gitignore): name a file of the app, relative to its folder.`,
      );
    }
    return entry;
  }
  try {
    const main = (
      JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { main?: unknown }
    ).main;
    if (typeof main === 'string' && normal(main) in files) return normal(main);
  } catch {
    // No package.json, or none that names a main: the candidates decide.
  }
  const found = ENTRYPOINT_CANDIDATES.find((candidate) => candidate in files);
  if (!found) {
    throw usageError(
      `${shown} has none of ${ENTRYPOINT_CANDIDATES.join(', ')} and its package.json names no main: give --entrypoint.`,
    );
  }
  return found;
}

/**
 * Zips an app folder for a deploy: every file but what `.gitignore` files ignore, version
 * control, installed packages (the service installs them from package.json and the lockfile;
 * `withNodeModules` sends them as they are, for packages no registry has) and `.env*` files
 * (secrets go in as --env, sealed); symbolic links are left out. Bounded as the service bounds
 * an archive.
 */
export async function appArchive(
  cwd: string,
  path: string,
  entrypoint: string | undefined,
  withNodeModules = false,
): Promise<AppArchive> {
  const root = resolve(cwd, path);
  try {
    if (!(await stat(root)).isDirectory()) throw new Error('not a folder');
  } catch {
    throw usageError(`${path} is not a folder: give the folder of the app to deploy.`);
  }
  // Each folder's .gitignore is read before its entries are judged.
  const rules = new Map<string, Ignore | undefined>([['', await rulesOf(root)]]);
  const gathered: Gathered = {
    files: {},
    count: 0,
    bytes: 0,
    skips: (name, isFolder) => {
      const base = name.slice(name.lastIndexOf('/') + 1);
      if (withNodeModules && base === 'node_modules') return false;
      return isLeftOut(base) || isIgnored(name, isFolder, rules);
    },
    shown: path,
    what: 'an app',
    enter: async (folder, name) => {
      rules.set(name, await rulesOf(folder));
    },
  };
  await filesOf(root, root, gathered);
  const zipped = zipSync(gathered.files, { level: 6 });
  if (zipped.byteLength > LIMITS.extensionArchiveBytes) {
    throw usageError(
      `${path} zips to ${zipped.byteLength} bytes, over the ${LIMITS.extensionArchiveBytes}-byte limit: leave out what the app does not need (.gitignore).`,
    );
  }
  return {
    file: new Blob([zipped as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
    size: zipped.byteLength,
    entrypoint: await entrypointOf(root, path, entrypoint, gathered.files),
    fileCount: Object.keys(gathered.files).length,
  };
}
