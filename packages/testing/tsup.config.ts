import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    vitest: 'src/vitest/index.ts',
    'bin/xb-fake': 'src/bin/xb-fake.ts',
  },
  format: ['esm'],
  // The shared request pipeline is a private workspace package: it ships inside this one.
  noExternal: ['@x/service-kernel'],
  dts: {
    entry: { index: 'src/index.ts', vitest: 'src/vitest/index.ts' },
    resolve: ['@x/service-kernel'],
  },
  // Maps without their sources point at files the package does not ship: none are shipped.
  sourcemap: false,
  clean: true,
  target: 'es2022',
  external: ['vitest'],
});
