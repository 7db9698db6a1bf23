import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * The server's suite runs twice in CI: with its records in SQLite, then on PostgreSQL
 * (`XB_TEST_STORE=postgresql`). A file that runs the same either way is left out of the second
 * run: a cluster's tests (their nodes share a PostgreSQL cluster of their own in both runs) and
 * a file that starts no server (it reaches nothing of the test support, the server or its
 * store). `testConfig` checks the choice: a server started on the suite's store by a file left
 * out fails its test in the first run.
 */

/** What a file that may start a server on the suite's store imports. */
const STARTS_SERVERS = /test-support\/|server\.js|main\.js|startup\/|store\//;

/** Whether a test file, by its path under the package and its text, runs the same on either store. */
export function isSameOnEitherStore(file: string, text: string): boolean {
  return file.startsWith('src/cluster/') || !STARTS_SERVERS.test(text);
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
