import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['../../scripts/test-temp-folder.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file starts real Chromium processes; two cores run them one file at a time.
    fileParallelism: false,
  },
});
