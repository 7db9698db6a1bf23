import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/*
 * The server's suite runs twice in CI: with its records in SQLite, then on PostgreSQL
 * (`XB_TEST_STORE=postgresql`). A file that runs the same either way is left out of the second
 * run: a cluster's tests (their nodes share a PostgreSQL cluster of their own in both runs) and
 * a file that can start no server on the suite's store (it imports nothing of the test support,
 * the server, its startup or its store, and names none of the store's settings). The suite's
 * store is reached only through `testStoreEnv`, which checks the choice: a file left out that
 * reaches it fails its test in the first run.
 */

/** Where, under the package, the modules that can start a server or open a store are. */
const STARTS_SERVERS = [
  'src/test-support/',
  'src/store/',
  'src/startup/',
  'src/server.ts',
  'src/main.ts',
];

/** The store's settings, by name: a file that names one may set them itself. */
const STORE_SETTINGS = /XB_TEST_STORE|XB_TEST_POSTGRES_URL|XB_DATABASE_URL|dist\/main\.js/;

/** What a file imports by a relative path, as paths under the package (`.js` read as `.ts`). */
function relativeImports(file: string, text: string): string[] {
  const found = text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g);
  return [...found].map(([, specifier]) =>
    normalize(join(dirname(file), specifier as string)).replace(/\.js$/, '.ts'),
  );
}

/**
 * Whether a test file, by its path under the package (`src/…`) and its text, runs the same on
 * either store.
 */
export function isSameOnEitherStore(file: string, text: string): boolean {
  if (file.startsWith('src/cluster/')) return true;
  if (STORE_SETTINGS.test(text)) return false;
  return !relativeImports(file, text).some((path) =>
    STARTS_SERVERS.some((place) => path === place || path.startsWith(place)),
  );
}

/**
 * Fails when a file left out of the PostgreSQL run reaches the suite's store: it would never run
 * on PostgreSQL. `file` is its path under the package.
 */
export function assertInPostgresRun(file: string, text: string): void {
  if (isSameOnEitherStore(file, text)) {
    throw new Error(
      `${file} starts a server on the suite's store, but the PostgreSQL run leaves it out (store-runs.ts)`,
    );
  }
}

/** The test files, under the package's folder, that the PostgreSQL run leaves out. */
export function leftOutOfPostgresRun(packageFolder: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) {
        const file = relative(packageFolder, path);
        if (isSameOnEitherStore(file, readFileSync(path, 'utf8'))) found.push(file);
      }
    }
  };
  walk(join(packageFolder, 'src'));
  return found.sort();
}
