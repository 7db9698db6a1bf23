/**
 * Size of the client in a browser app: bundles (esbuild, minified, browser platform) an app that
 * calls all seven operations of the interface description, and reports min+gzip size next to the
 * same app written with raw fetch. Target: at most 10 kB.
 *
 * Run: pnpm --filter @x/client bench   (after a build)
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const TARGET_KB = 10;
const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const SEVEN_CALLS = `
import { createClient } from '@x/client';
const client = createClient({ baseUrl: location.origin, token: 't' });
export async function run(file) {
  await client.browsers.replays.stop({ id: 'b', replay_id: 'r' });
  await client.browsers.computer.type({ id: 'b', text: 'hi' });
  await client.browserPools.get({ id_or_name: 'p' });
  await client.extensions.upload({ file });
  await client.invocations.listBrowsers({ id: 'i' });
  await client.browsers.process.status({ id: 'b', process_id: 'p' });
  await client.browsers.fs.watch.stop({ id: 'b', watch_id: 'w' });
}`;

const RAW_CALLS = `
const h = { authorization: 'Bearer t' };
const j = (r) => r.json();
export async function run(file) {
  await fetch('/browsers/b/replays/r/stop', { method: 'POST', headers: h }).then(j);
  await fetch('/browsers/b/computer/type', { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'hi' }) });
  await fetch('/browser_pools/p', { headers: h }).then(j);
  const form = new FormData(); form.append('file', file);
  await fetch('/extensions', { method: 'POST', headers: h, body: form }).then(j);
  await fetch('/invocations/i/browsers', { headers: h }).then(j);
  await fetch('/browsers/b/process/p/status', { headers: h }).then(j);
  await fetch('/browsers/b/fs/watch/w', { method: 'DELETE', headers: h });
}`;

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

/** ky alone: every SDK on ky carries it. */
const KY_ONLY = `import ky from 'ky'; export const k = ky;`;

const raw = await size(RAW_CALLS);
const kyAlone = await size(KY_ONLY);
const sdk = await size(SEVEN_CALLS);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} kB`.padStart(10);
console.log('browser bundle of an app calling the seven operations   minified   min+gzip');
console.log(
  `raw fetch (baseline, no validation)                   ${kb(raw.minified)} ${kb(raw.gzipped)}`,
);
console.log(
  `ky alone (the floor of an SDK on ky)                  ${kb(kyAlone.minified)} ${kb(kyAlone.gzipped)}`,
);
console.log(
  `@x/client                                             ${kb(sdk.minified)} ${kb(sdk.gzipped)}`,
);
const isOk = sdk.gzipped / 1024 <= TARGET_KB;
console.log(
  `client min+gzip: ${(sdk.gzipped / 1024).toFixed(2)} kB (target <= ${TARGET_KB} kB) ${isOk ? 'OK' : 'OVER TARGET'}`,
);
