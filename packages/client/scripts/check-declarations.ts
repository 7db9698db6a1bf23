/**
 * The public declarations import neither `@x/types` nor valibot: an app that type-checks against
 * the client then reads its plain declarations only, never the catalog's schema types (which
 * cost an editor over ten times the Kernel SDK's checking time). `bench-types.ts` measures that
 * cost; this holds its cause, in every run of the tests.
 *
 * Run: pnpm --filter @x/client size   (after a build)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const declarations = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) =>
  file.endsWith('.d.ts'),
);
const heavy =
  /^\s*(?:import|export)\b[^;]*?\bfrom\s+['"](?:@x\/types|valibot)(?:\/[^'"]*)?['"]|\bimport\(\s*['"](?:@x\/types|valibot)(?:\/[^'"]*)?['"]\s*\)/gm;
const found: string[] = [];
for (const file of declarations) {
  for (const match of readFileSync(`${dist}${file}`, 'utf8').matchAll(heavy)) {
    found.push(`${file}: ${match[0].trim()}`);
  }
}
if (declarations.length === 0) {
  console.error('no declarations in dist/: build first');
  process.exitCode = 1;
} else if (found.length > 0) {
  console.error(
    `the public declarations import the catalog's types (import the client's own instead):\n${found.join('\n')}`,
  );
  process.exitCode = 1;
} else {
  console.log(`${declarations.length} declaration files import neither @x/types nor valibot: OK`);
}
