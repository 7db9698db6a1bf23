import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['../../scripts/test-temp-folder.ts'],
    testTimeout: 30_000,
  },
});
