import { defineConfig } from 'vitest/config';

/**
 * The system tests: the shipped artifacts (the built `xb-server` bin as a process, a cluster of
 * them on PostgreSQL) driven through their public API. `pnpm --filter @x/server test:system`,
 * after `pnpm build`.
 */
export default defineConfig({
  test: {
    include: ['system-tests/**/*.test.ts'],
    globalSetup: ['../../scripts/test-temp-folder.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
