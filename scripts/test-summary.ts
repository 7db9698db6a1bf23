/**
 * Adds up the JSON reports vitest wrote in each package (`.test-report.json`, and a second run's
 * such as the server's suite on PostgreSQL, `.test-report-postgresql.json`) and prints one
 * closing line, `tests: N passed, N failed`, so a reader sees the whole run at a glance.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const group of ['packages', 'apps', 'tests']) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) {
    const folder = join(group, name);
    if (!statSync(folder).isDirectory()) continue;
    for (const file of readdirSync(folder)) {
      if (!/^\.test-report(-[a-z]+)?\.json$/.test(file)) continue;
      const report = JSON.parse(readFileSync(join(folder, file), 'utf8')) as {
        numPassedTests: number;
        numFailedTests: number;
        numPendingTests: number;
        numTodoTests: number;
      };
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      skipped += report.numPendingTests + report.numTodoTests;
    }
  }
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
