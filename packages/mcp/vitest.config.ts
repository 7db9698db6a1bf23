import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  define: { __XB_MCP_VERSION__: JSON.stringify(version) },
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['../../scripts/test-temp-folder.ts'],
    testTimeout: 30_000,
  },
});
