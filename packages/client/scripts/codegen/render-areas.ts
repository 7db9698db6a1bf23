/**
 * Renders the client's generated files from the operation catalog of @x/types, one per area as
 * @x/types has them (its folders), like an SDK's resource files:
 * - `src/areas/<area>.ts`: the records the area's schemas describe, each operation's input and
 *   answer, and each operation as a function of a core;
 * - `src/areas/index.ts`: every area's names, and the client's methods grouped as the API is;
 * - `src/calls/error-body.ts`: the error body every error answer carries, which the request and
 *   error modules import without the rest.
 * `areas.test.ts` renders them again and fails when a file has fallen behind.
 */
import { readdirSync } from 'node:fs';
import * as types from '@x/types';
import { type Operation, operations } from '@x/types';
import { HELPERS, renderFunction } from './render-operations.js';
import {
  exportName,
  functionName,
  type OperationTypes,
  renderMethodGroups,
  renderOperationTypes,
  TypeRenderer,
} from './render-types.js';

/** The folder of @x/types's sources, where each area is a folder of files. */
const TYPES_SOURCE = new URL('../../../types/src/', import.meta.url);

/**
 * The area each runtime name of @x/types comes from (`BrowserSessionSchema` → browsers): the
 * folder of the file that exports it, among the names the package exports.
 */
async function areasOfNames(): Promise<Map<string, string>> {
  const areas = new Map<string, string>();
  const folders = readdirSync(TYPES_SOURCE, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
    .map((entry) => entry.name)
    .sort();
  for (const folder of folders) {
    if (folder === 'index') throw new Error('an area of @x/types cannot be named index');
    const files = readdirSync(new URL(`${folder}/`, TYPES_SOURCE))
      .filter((file) => file.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(file))
      .sort();
    for (const file of files) {
      const module: Record<string, unknown> = await import(
        new URL(`${folder}/${file}`, TYPES_SOURCE).href
      );
      for (const name of Object.keys(module)) {
        if (!(name in types)) continue;
        const other = areas.get(name);
        if (other && other !== folder) {
          throw new Error(`${name} is exported by both ${other} and ${folder}`);
        }
        areas.set(name, folder);
      }
    }
  }
  return areas;
}

/** Where the types a generated file may use but does not declare come from, seen from `areas/`. */
const WRAPPERS: Record<string, string> = {
  CallPromise: '../client/call-promise.js',
  CallOptions: '../client/options.js',
  Core: '../client/core.js',
  BinaryBody: '../streams/binary-body.js',
  EventStream: '../streams/event-stream.js',
  UploadSource: '../uploads/upload-source.js',
  PagePromise: '../calls/list-page.js',
};

/** The line every generated file carries; only files with it are removed as left over. */
export const GENERATED_MARK =
  ' * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails';

const GENERATED = (what: string) => [
  '/**',
  ...what.split('\n').map((line) => ` *${line ? ` ${line}` : ''}`),
  ' *',
  GENERATED_MARK,
  ' * when it falls behind. Do not edit.',
  ' */',
];

/** A comment or a string literal, whichever starts first (read in one pass, as a lexer does). */
const COMMENT_OR_STRING =
  /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

/** The capitalized names a piece of TypeScript uses, leaving out its comments and strings. */
function namesUsed(source: string): Set<string> {
  const code = source.replace(COMMENT_OR_STRING, (found) => (found.startsWith('/') ? ' ' : "''"));
  return new Set([...code.matchAll(/\b[A-Z]\w*\b/g)].map(([name]) => name));
}

/** `import type { … } from …` lines for the names a file uses from elsewhere, by module. */
function typeImports(used: Set<string>, local: Set<string>, homes: Map<string, string>): string[] {
  const byModule = new Map<string, string[]>();
  for (const name of [...used].sort()) {
    if (local.has(name)) continue;
    const home = homes.get(name);
    if (!home) continue;
    byModule.set(home, [...(byModule.get(home) ?? []), name]);
  }
  return [...byModule].map(
    ([from, names]) => `import type { ${names.join(', ')} } from '${from}';`,
  );
}

interface Area {
  readonly records: string[];
  readonly declarations: string[];
  readonly functions: { readonly group: string; readonly source: string }[];
  readonly values: Set<string>;
  readonly helpers: Set<keyof typeof HELPERS>;
  readonly declared: Set<string>;
}

/** Every generated file, by its path under `src/`, before formatting. */
export async function renderClientFiles(): Promise<Map<string, string>> {
  const areaOf = await areasOfNames();
  const renderer = new TypeRenderer();
  // The error body is no operation's answer, but every error carries it.
  renderer.render(types.ErrorSchema as never, 'output');
  const errorRecords = [...renderer.records.keys()];
  const byOperation = renderOperationTypes(renderer);
  const groups = renderMethodGroups(byOperation, renderer);

  const areas = new Map<string, Area>();
  const area = (name: string): Area => {
    let found = areas.get(name);
    if (!found) {
      found = {
        records: [],
        declarations: [],
        functions: [],
        values: new Set(),
        helpers: new Set(),
        declared: new Set(),
      };
      areas.set(name, found);
    }
    return found;
  };
  /** The module each generated type is declared in, seen from `areas/`. */
  const homes = new Map<string, string>(Object.entries(WRAPPERS));
  for (const name of errorRecords) homes.set(name, '../calls/error-body.js');
  for (const [name, text] of renderer.records) {
    if (errorRecords.includes(name)) continue;
    const schema = renderer.recordSchemas.get(name) as string;
    const home = areaOf.get(schema);
    if (!home) throw new Error(`${schema} is in no area of @x/types`);
    area(home).records.push(text);
    area(home).declared.add(name);
    homes.set(name, `./${home}.js`);
  }
  for (const operation of operations as readonly Operation[]) {
    const home = areaOf.get(exportName(operation));
    if (!home) throw new Error(`${operation.name} is in no area of @x/types`);
    const rendered = byOperation.get(operation) as OperationTypes;
    const target = area(home);
    for (const name of rendered.declared) {
      target.declarations.push(renderer.declarations.get(name) as string);
      target.declared.add(name);
      homes.set(name, `./${home}.js`);
    }
    homes.set(functionName(operation), `./${home}.js`);
    const fn = renderFunction(operation, rendered);
    target.functions.push({
      group: operation.name.split('.').slice(0, -1).join('.'),
      source: fn.source,
    });
    for (const value of fn.values) target.values.add(value);
    for (const helper of fn.helpers) target.helpers.add(helper);
  }

  const files = new Map<string, string>();
  const names = [...areas.keys()].sort();
  for (const name of names) {
    const parts = areas.get(name) as Area;
    const functions: string[] = [];
    let group: string | undefined;
    for (const fn of parts.functions) {
      if (fn.group !== group) functions.push(`// ${fn.group}`, '');
      group = fn.group;
      functions.push(fn.source, '');
    }
    const body = [
      ...(parts.records.length > 0
        ? ['// Records', '', ...parts.records.flatMap((t) => [t, ''])]
        : []),
      ...(parts.declarations.length > 0
        ? ['// Inputs and answers', '', ...parts.declarations.flatMap((t) => [t, ''])]
        : []),
      ...(functions.length > 0 ? ['// Functions', '', ...functions] : []),
    ].join('\n');
    const what =
      parts.functions.length > 0
        ? `The \`${name}\` area: its records, each of its operations' input and answer as named types\nwith the descriptions of the catalog, and each operation as a function of a core\n(\`createCore\`), for apps that bundle only what they call. Each function carries its route\n(no schema), and upload and stream code only when it needs it.`
        : `The records of the \`${name}\` area, as named types with the descriptions of the catalog.`;
    files.set(
      `areas/${name}.ts`,
      [
        ...GENERATED(what),
        ...(parts.values.size > 0
          ? [`import { ${[...parts.values].sort().join(', ')} } from '@x/types';`]
          : []),
        ...typeImports(namesUsed(body), parts.declared, homes),
        ...[...parts.helpers].map((helper) => `import { ${helper} } from '${HELPERS[helper]}';`),
        '',
        body,
      ].join('\n'),
    );
  }

  const methods = groups.join('\n\n');
  const functionNames = (operations as readonly Operation[]).map(functionName);
  files.set(
    'areas/index.ts',
    [
      ...GENERATED(
        "Every area's records, inputs, answers and functions, and the client's methods grouped as\nthe API is.",
      ),
      ...typeImports(namesUsed(methods), new Set(), homes),
      ...names.flatMap((name) => {
        const own = functionNames.filter((fn) => homes.get(fn) === `./${name}.js`);
        return own.length > 0 ? [`import { ${own.join(', ')} } from './${name}.js';`] : [];
      }),
      '',
      `export type { ${errorRecords.join(', ')} } from '../calls/error-body.js';`,
      ...names.map((name) => `export * from './${name}.js';`),
      '',
      '/**',
      ' * Every operation function, in catalog order: what `createClient` makes its methods of, and',
      ' * what a wrapper of your own may walk. A list, not a namespace, so that a bundle of one',
      ' * function leaves the others out.',
      ' */',
      `export const operationFunctions = [${functionNames.join(', ')}] as const;`,
      '',
      methods,
      '',
    ].join('\n'),
  );

  files.set(
    'calls/error-body.ts',
    [
      '/**',
      " * The API's error body, as the catalog describes it: every error answer carries one.",
      ' *',
      ' * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`. Do not edit.',
      ' */',
      '',
      ...errorRecords.flatMap((name) => [renderer.records.get(name), '']),
    ].join('\n'),
  );
  return files;
}
