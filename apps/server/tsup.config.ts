import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  // The Playwright worker runs on its own, in a session's sandbox (playwright-core and ws stay
  // outside the bundle: the sandbox binds their folders).
  entry: {
    // The bin: checks the Node.js it runs on, then loads server-main.
    main: 'src/main.ts',
    'server-main': 'src/server-main.ts',
    index: 'src/index.ts',
    'playwright-worker': 'src/playwright/playwright-worker.ts',
    // The WebDriver BiDi mapper's process, in a session's sandbox too (chromium-bidi bound).
    'bidi-worker': 'src/webdriver/bidi-worker.ts',
    // What runs a deployment's code, in a sandbox per run (the deployment brings its packages).
    'app-host': 'src/apps/app-host.ts',
  },
  format: ['esm'],
  // The service kernel is a private workspace package: it ships inside the server's bundle.
  noExternal: ['@x/service-kernel'],
  dts: { entry: { index: 'src/index.ts' }, resolve: ['@x/service-kernel'] },
  // Maps without their sources point at files the package does not ship: none are shipped.
  sourcemap: false,
  clean: true,
  target: 'es2022',
  // node:sqlite exists only under its node: name; keep every node: prefix as written.
  removeNodeProtocol: false,
  define: { __XB_SERVER_VERSION__: JSON.stringify(version) },
});
