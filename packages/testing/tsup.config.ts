import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    vitest: 'src/vitest/index.ts',
    'bin/xb-fake': 'src/bin/xb-fake.ts',
  },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts', vitest: 'src/vitest/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: ['vitest'],
});
