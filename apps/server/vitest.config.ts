import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The run's temporary folder, and its PostgreSQL cluster when XB_TEST_STORE=postgresql.
    globalSetup: ['../../scripts/test-temp-folder.ts', './src/test-support/postgres-global.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file starts real Chromium processes; two cores run them one file at a time.
    fileParallelism: false,
  },
});
