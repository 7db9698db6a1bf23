import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { leftOutOfPostgresRun } from './src/test-support/store-runs.js';

const onPostgres = process.env.XB_TEST_STORE === 'postgresql';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // On PostgreSQL, the files that would run the same as on SQLite are left out (store-runs.ts).
    exclude: [
      ...configDefaults.exclude,
      ...(onPostgres ? leftOutOfPostgresRun(fileURLToPath(new URL('.', import.meta.url))) : []),
    ],
    // The run's temporary folder, and its PostgreSQL cluster when XB_TEST_STORE=postgresql.
    globalSetup: ['../../scripts/test-temp-folder.ts', './src/test-support/postgres-global.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file starts real Chromium processes; two cores run them one file at a time.
    fileParallelism: false,
  },
});
