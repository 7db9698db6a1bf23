/**
 * Every error the code lets go of says why. Finds, in the source of every package (tests left
 * out), a promise's `.catch(() => undefined)` (or `{}`, `null`, `false`, `[]`, `''`) and an empty
 * `catch {}` block, and fails unless a comment on the same line, or just before its statement,
 * says why the error may be ignored. An error that matters is handled or logged instead.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOTS = ['packages', 'apps', 'tests'];
const SKIPPED = new Set(['node_modules', 'dist', '.turbo', 'out']);

/** A handler that drops the error, `.catch(() => undefined)` and its kind, over lines or not. */
const DROPPING =
  /\.catch\(\s*\(\s*\)\s*=>\s*(?:undefined|null|false|''|'\{\}'|\[\]|\{\s*\})\s*,?\s*\)/g;
/** An empty catch block: `catch {}`, `catch (error) {}`. */
const EMPTY_BLOCK = /\bcatch\s*(?:\([^)]*\))?\s*\{\s*\}/g;
const COMMENT = /\/\/|\/\*/;

/**
 * Whether a comment stands just before the statement the line is part of: on the line before, or
 * on a line before one of the statement's own earlier lines (a chain broken over lines).
 */
function isExplained(lines: readonly string[], index: number): boolean {
  for (let at = index - 1; at >= Math.max(0, index - 6); at--) {
    const line = lines[at] ?? '';
    if (/^\s*(?:\/\/|\*|\/\*)/.test(line)) return true;
    // The statement starts below a line that ends another one (or opens a block).
    if (/[;{}]\s*$/.test(line)) return false;
  }
  return false;
}

function* sourceFiles(folder: string): Generator<string> {
  for (const name of readdirSync(folder)) {
    if (SKIPPED.has(name)) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.ts$/.test(name) && !/\.test(-d)?\.ts$/.test(name) && !name.endsWith('.d.ts'))
      yield path;
  }
}

const root = new URL('..', import.meta.url).pathname;
const found: string[] = [];
for (const group of ROOTS) {
  let packages: string[];
  try {
    packages = readdirSync(join(root, group));
  } catch {
    continue; // a checkout without this group
  }
  for (const name of packages) {
    const source = join(root, group, name, 'src');
    try {
      statSync(source);
    } catch {
      continue; // a package without sources of its own
    }
    for (const file of sourceFiles(source)) {
      const text = readFileSync(file, 'utf8');
      const lines = text.split('\n');
      for (const pattern of [DROPPING, EMPTY_BLOCK]) {
        for (const match of text.matchAll(pattern)) {
          const first = text.slice(0, match.index).split('\n').length - 1;
          const last = first + match[0].split('\n').length - 1;
          const spanned = lines.slice(first, last + 1);
          if (spanned.some((line) => COMMENT.test(line)) || isExplained(lines, first)) continue;
          found.push(`${relative(root, file)}:${first + 1}: ${(lines[first] ?? '').trim()}`);
        }
      }
    }
  }
}
if (found.length > 0) {
  console.error(
    `${found.length} errors let go without a word of why (handle or log them, or say why in a comment):`,
  );
  for (const each of found) console.error(`  ${each}`);
  process.exit(1);
}
console.log('every error let go says why');
