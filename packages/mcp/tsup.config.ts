import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  dts: true,
  // Maps without their sources point at files the package does not ship: none are shipped.
  sourcemap: false,
  clean: true,
  target: 'es2022',
  define: { __XB_MCP_VERSION__: JSON.stringify(version) },
});
