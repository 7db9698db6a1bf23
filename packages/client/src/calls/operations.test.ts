/**
 * `operations.ts` is generated from the catalog: this test renders it again and fails when the
 * file has fallen behind (a new operation, a changed path). `pnpm --filter @x/client generate`
 * writes it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as types from '@x/types';
import { describe, expect, it } from 'vitest';
import * as functions from './operations.js';
import { type Route, routeOf } from './route.js';

const FILE = fileURLToPath(new URL('./operations.ts', import.meta.url));
const BIOME = fileURLToPath(new URL('../../../../node_modules/.bin/biome', import.meta.url));

/** The name a value is exported under from @x/types. */
function exportName(value: unknown): string {
  const found = Object.entries(types).find(([, exported]) => exported === value)?.[0];
  if (!found) throw new Error(`not exported from @x/types: ${String(value)}`);
  return found;
}

function literal(route: Route): string {
  const fields = Object.entries(route).map(([key, value]) => {
    if (key === 'serverTimeMs') return `${key}: ${exportName(value)}`;
    if (key !== 'responses') return `${key}: ${JSON.stringify(value)}`;
    const kinds = Object.entries(value).map(([status, kind]) => `${status}: '${kind}'`);
    return `${key}: { ${kinds.join(', ')} }`;
  });
  return `{ ${fields.join(', ')} }`;
}

function render(): string {
  const typeImports: string[] = [];
  const valueImports = new Set<string>();
  const sections = new Map<string, string[]>();
  const helpers = new Set<string>();
  for (const operation of types.operations) {
    const exported = exportName(operation);
    typeImports.push(`type ${exported}`);
    const route = routeOf(operation);
    if (route.serverTimeMs) valueImports.add(exportName(route.serverTimeMs));
    const kinds = Object.values(route.responses);
    const parts = [
      route.body === 'multipart' || route.body === 'binary' ? 'encodeBody: encodeUploadBody' : '',
      kinds.includes('binary') || kinds.includes('event-stream') ? 'readBody: readStreamBody' : '',
    ].filter(Boolean);
    for (const part of parts) helpers.add(part.split(': ')[1] as string);
    const define = route.paginated ? 'defineListCall' : 'defineCall';
    helpers.add(define);
    const args = [literal(route), ...(parts.length > 0 ? [`{ ${parts.join(', ')} }`] : [])];
    const group = operation.name.split('.').slice(0, -1).join('.');
    const section = sections.get(group) ?? [];
    sections.set(group, section);
    section.push(
      `/**\n * ${operation.summary}\n * \`${operation.name}\`: \`${operation.method} ${operation.path}\`\n */\n` +
        `export const ${exported.replace(/Operation$/, '')} = /* @__PURE__ */ ${define}<typeof ${exported}>(${args.join(', ')});`,
    );
  }
  const from = {
    encodeUploadBody: '../uploads/encode-body.js',
    readStreamBody: '../streams/read-body.js',
    defineCall: './define-call.js',
    defineListCall: './list-page.js',
  } as const;
  const source = [
    '/**',
    ' * Every operation as a function of a core (`createCore`), for apps that bundle only what they',
    ' * call: `await getBrowserPool(core, { id_or_name })`. Each carries its route (no schema), and',
    ' * upload and stream code only when it needs it; `checked(fn, operation)` adds the local checks',
    ' * every `createClient` method makes.',
    ' *',
    ' * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails',
    ' * when it falls behind. Do not edit.',
    ' */',
    `import { ${[...typeImports, ...valueImports].join(', ')} } from '@x/types';`,
    ...[...helpers].map(
      (helper) => `import { ${helper} } from '${from[helper as keyof typeof from]}';`,
    ),
    '',
    ...[...sections].flatMap(([group, lines]) => [
      `// ${group}`,
      '',
      ...lines.flatMap((line) => [line, '']),
    ]),
  ].join('\n');
  const formatted = spawnSync(BIOME, ['check', '--write', `--stdin-file-path=${FILE}`], {
    input: source,
    encoding: 'utf8',
  });
  if (formatted.status !== 0) throw new Error(`biome: ${formatted.stderr}`);
  return formatted.stdout;
}

describe('the operation functions', () => {
  it('are generated from the catalog, and the file is current', () => {
    const expected = render();
    if (process.env.XB_WRITE_OPERATIONS === '1') writeFileSync(FILE, expected);
    expect(readFileSync(FILE, 'utf8')).toBe(expected);
  });

  it('carry the route of their operation, one function per operation', () => {
    const defined = Object.values(functions);
    expect(defined).toHaveLength(types.operations.length);
    for (const operation of types.operations) {
      const name = exportName(operation).replace(/Operation$/, '');
      const call = (functions as Record<string, unknown>)[name];
      expect(call, name).toBeTypeOf('function');
    }
  });
});
