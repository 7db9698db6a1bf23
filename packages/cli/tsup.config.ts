import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  entry: { index: 'src/index.ts', 'bin/xb': 'src/bin/xb.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  // Maps without their sources point at files the package does not ship: none are shipped.
  sourcemap: false,
  clean: true,
  target: 'es2022',
  // The bin's dependencies are bundled in, split so `xb --version` loads only its own few lines.
  noExternal: [/.*/],
  splitting: true,
  define: { __XB_VERSION__: JSON.stringify(version) },
});
