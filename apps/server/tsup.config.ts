import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { main: 'src/main.ts', index: 'src/index.ts' },
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // node:sqlite is new enough that bundlers do not know it as a built-in yet.
  external: ['node:sqlite'],
});
