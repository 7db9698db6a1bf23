/**
 * Size of the client in a browser app (esbuild, minified, browser platform, gzip level 9), in one
 * run:
 * - ky alone: every SDK on ky carries it, the floor;
 * - an app calling one operation through the operation functions (`getBrowserPool`);
 * - an app calling the seven operations of the interface description through the functions;
 * - an app calling one operation through `createClient` (every method, nothing shaken off);
 * - the same with `checks: catalogChecks` (every schema and valibot come along), for reference;
 * - an app calling one operation through the Kernel SDK (`@onkernel/sdk`), for comparison.
 * Targets: one operation ≤ ky + 3 kB, the seven ≤ ky + 7 kB, the whole client ≤ the Kernel
 * SDK's (measured in the same run).
 *
 * Run: pnpm --filter @x/client bench   (after a build)
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const KB = 1024;
const TARGET_ONE_OVER_KY = 3 * KB;
const TARGET_SEVEN_OVER_KY = 7 * KB;
const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const apps = {
  'ky alone (the floor of an SDK on ky)': `import ky from 'ky'; export const k = ky;`,
  'one operation (getBrowserPool)': `
import { createCore, getBrowserPool } from '@x/client';
const core = createCore({ baseUrl: location.origin, token: 't' });
export const run = () => getBrowserPool(core, { id_or_name: 'p' });`,
  'the seven operations (functions)': `
import { createCore, stopReplay, typeText, getBrowserPool, uploadExtension,
  listInvocationBrowsers, getProcessStatus, stopWatch } from '@x/client';
const core = createCore({ baseUrl: location.origin, token: 't' });
export async function run(file) {
  await stopReplay(core, { id: 'b', replay_id: 'r' });
  await typeText(core, { id: 'b', text: 'hi' });
  await getBrowserPool(core, { id_or_name: 'p' });
  await uploadExtension(core, { file });
  await listInvocationBrowsers(core, { id: 'i' });
  await getProcessStatus(core, { id: 'b', process_id: 'p' });
  await stopWatch(core, { id: 'b', watch_id: 'w' });
}`,
  'the full client (createClient), one call': `
import { createClient } from '@x/client';
const client = createClient({ baseUrl: location.origin, token: 't' });
export const run = () => client.browserPools.get({ id_or_name: 'p' });`,
  'createClient with catalogChecks, one call': `
import { catalogChecks, createClient } from '@x/client';
const client = createClient({ baseUrl: location.origin, token: 't', checks: catalogChecks });
export const run = () => client.browserPools.get({ id_or_name: 'p' });`,
  'Kernel SDK, one call (browserPools.retrieve)': `
import Kernel from '@onkernel/sdk';
const kernel = new Kernel({ apiKey: 't', baseURL: location.origin });
export const run = () => kernel.browserPools.retrieve('p');`,
};

async function size(source: string): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    alias: { '@x/client': entry },
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

const sizes: Record<string, { minified: number; gzipped: number }> = {};
for (const [name, source] of Object.entries(apps)) sizes[name] = await size(source);
const kb = (bytes: number) => `${(bytes / KB).toFixed(2)} kB`.padStart(9);
const ky = sizes['ky alone (the floor of an SDK on ky)']?.gzipped ?? 0;
console.log(`${'browser bundle'.padEnd(46)} minified  min+gzip  over ky`);
for (const [name, { minified, gzipped }] of Object.entries(sizes)) {
  console.log(`${name.padEnd(46)}${kb(minified)}${kb(gzipped)}${kb(gzipped - ky)}`);
}
let failed = false;
for (const [name, target] of [
  ['one operation (getBrowserPool)', TARGET_ONE_OVER_KY],
  ['the seven operations (functions)', TARGET_SEVEN_OVER_KY],
] as const) {
  const over = (sizes[name]?.gzipped ?? 0) - ky;
  const ok = over <= target;
  failed ||= !ok;
  console.log(
    `${name}: ky + ${kb(over).trim()} (target <= ky + ${target / KB} kB) ${ok ? 'OK' : 'OVER TARGET'}`,
  );
}
const full = sizes['the full client (createClient), one call']?.gzipped ?? 0;
const kernel = sizes['Kernel SDK, one call (browserPools.retrieve)']?.gzipped ?? 0;
const fullOk = full <= kernel;
failed ||= !fullOk;
console.log(
  `the full client: ${kb(full).trim()}, ${(full / kernel).toFixed(2)}x the Kernel SDK's ${kb(kernel).trim()} (target <= 1.00x) ${fullOk ? 'OK' : 'OVER TARGET'}`,
);
if (failed) process.exitCode = 1;
