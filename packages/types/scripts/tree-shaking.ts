/**
 * Shows that @x/types tree-shakes. Bundles (esbuild, minified, gzipped) three apps in one run:
 * - baseline: the same BrowserPoolSchema written by hand with valibot, the floor no package beats;
 * - single: an app that imports only BrowserPoolSchema from @x/types;
 * - whole: an app that keeps every export of @x/types.
 * Prints the sizes and ratios, and fails when one schema stops being a small fraction of the
 * whole or costs much more than writing it by hand.
 *
 * Run: pnpm --filter @x/types size   (after a build)
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** Largest share of the whole package that one schema's bundle may be. */
const MAX_SHARE_OF_WHOLE = 0.3;
/** Largest cost of the imported schema over the hand-written one. */
const MAX_OVER_BASELINE = 1.25;

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** BrowserPoolSchema as an app would write it with valibot alone (kept in step by hand). */
const HAND_WRITTEN = `
import { object, string, optional, pipe, number, integer, minValue, boolean, array, record,
  unknown, custom, isoTimestamp } from 'valibot';
const count = pipe(number(), integer(), minValue(0));
const int = () => pipe(number(), integer());
const ref = object({ id: optional(string()), name: optional(string()) });
const config = object({
  size: pipe(number(), integer(), minValue(1)), name: optional(string()),
  fill_rate_per_minute: optional(int()), timeout_seconds: optional(int()),
  stealth: optional(boolean()), headless: optional(boolean()),
  profile: optional(object({ id: optional(string()), name: optional(string()),
    save_changes: optional(boolean()) })),
  extensions: optional(array(ref)), proxy_id: optional(string()),
  viewport: optional(object({ width: int(), height: int(), refresh_rate: optional(int()) })),
  kiosk_mode: optional(boolean()),
  telemetry: optional(object({ browser: object(Object.fromEntries(['control', 'connection',
    'system', 'captcha', 'console', 'network', 'page', 'interaction', 'screenshot'].map((name) =>
    [name, optional(object({ enabled: boolean() }))]))) })),
  chrome_policy: optional(pipe(custom((x) => typeof x === 'object' && x !== null &&
    !Array.isArray(x)), record(string(), unknown()))),
});
export const schema = object({ id: string(), name: optional(string()), available_count: count,
  acquired_count: count, created_at: pipe(string(), isoTimestamp()), browser_pool_config: config });
`;

async function bundledSize(source: string): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    alias: { '@x/types': entry },
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

const baseline = await bundledSize(HAND_WRITTEN);
const single = await bundledSize(
  "import { BrowserPoolSchema } from '@x/types'; export const schema = BrowserPoolSchema;",
);
const whole = await bundledSize("import * as all from '@x/types'; export const everything = all;");
const shareOfWhole = single.gzipped / whole.gzipped;
const overBaseline = single.gzipped / baseline.gzipped;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} kB`.padStart(10);
console.log('bundle (esbuild)                         minified   min+gzip');
console.log(
  `baseline: hand-written with valibot    ${kb(baseline.minified)} ${kb(baseline.gzipped)}`,
);
console.log(`single: BrowserPoolSchema from @x/types${kb(single.minified)} ${kb(single.gzipped)}`);
console.log(`whole: every export of @x/types        ${kb(whole.minified)} ${kb(whole.gzipped)}`);
console.log(`single / whole    = ${shareOfWhole.toFixed(3)} (limit ${MAX_SHARE_OF_WHOLE})`);
console.log(`single / baseline = ${overBaseline.toFixed(3)} (limit ${MAX_OVER_BASELINE})`);

if (shareOfWhole > MAX_SHARE_OF_WHOLE || overBaseline > MAX_OVER_BASELINE) {
  console.error('Tree-shaking regressed: importing one schema pulls in more than it needs.');
  process.exit(1);
}
