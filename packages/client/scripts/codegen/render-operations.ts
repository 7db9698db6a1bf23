/**
 * Renders `src/calls/operations.ts`: every operation as a function of a core, carrying its route
 * (no schema) and upload or stream code only when it needs it, typed with the named types of
 * `operation-types.ts`.
 */

import type { Operation } from '@x/types';
import * as types from '@x/types';
import { type Route, routeOf } from '../../src/calls/route.js';
import { exportName, functionName, type OperationTypes, operationDoc } from './render-types.js';

function literal(route: Route): string {
  const fields = Object.entries(route).map(([key, value]) => {
    if (key === 'serverTimeMs') return `${key}: ${exportName(value)}`;
    if (key !== 'responses') return `${key}: ${JSON.stringify(value)}`;
    const kinds = Object.entries(value).map(([status, kind]) => `${status}: '${kind}'`);
    return `${key}: { ${kinds.join(', ')} }`;
  });
  return `{ ${fields.join(', ')} }`;
}

/** The whole file, before formatting. */
export function renderOperationsFile(byOperation: Map<Operation, OperationTypes>): string {
  const typeImports = new Set<string>();
  const valueImports = new Set<string>();
  const sections = new Map<string, string[]>();
  const helpers = new Set<string>();
  for (const operation of types.operations as readonly Operation[]) {
    const rendered = byOperation.get(operation);
    if (!rendered) throw new Error(`no types rendered for ${operation.name}`);
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
    for (const [name] of `${rendered.signature} ${rendered.result}`.matchAll(/\b[A-Z]\w*/g)) {
      typeImports.add(name);
    }
    const args = [literal(route), ...(parts.length > 0 ? [`{ ${parts.join(', ')} }`] : [])];
    const group = operation.name.split('.').slice(0, -1).join('.');
    const section = sections.get(group) ?? [];
    sections.set(group, section);
    const lines = operationDoc(operation).map((line) => ` *${line ? ` ${line}` : ''}`);
    section.push(
      `/**\n${lines.join('\n')}\n * \`${operation.name}\`\n */\n` +
        `export const ${functionName(operation)}: ${rendered.signature.replace(/^\(/, '(core: Core, ')} = /* @__PURE__ */ ${define}<${rendered.input}, ${rendered.result}>(${args.join(', ')});`,
    );
  }
  const from = {
    encodeUploadBody: '../uploads/encode-body.js',
    readStreamBody: '../streams/read-body.js',
    defineCall: './define-call.js',
    defineListCall: './list-page.js',
  } as const;
  const wrappers = ['CallPromise', 'CallOptions', 'PagePromise', 'EventStream', 'BinaryBody'];
  const named = [...typeImports].filter((name) => !wrappers.includes(name));
  return [
    '/**',
    ' * Every operation as a function of a core (`createCore`), for apps that bundle only what they',
    ' * call: `await getBrowserPool(core, { id_or_name })`. Each carries its route (no schema), and',
    ' * upload and stream code only when it needs it; a core with `checks: catalogChecks`, or',
    ' * `checked(fn, operation)` for one function, adds local checks against the schemas.',
    ' *',
    ' * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails',
    ' * when it falls behind. Do not edit.',
    ' */',
    ...(valueImports.size > 0
      ? [`import { ${[...valueImports].join(', ')} } from '@x/types';`]
      : []),
    "import type { CallPromise } from '../client/call-promise.js';",
    "import type { Core } from '../client/core.js';",
    "import type { CallOptions } from '../client/options.js';",
    "import type { BinaryBody } from '../streams/binary-body.js';",
    "import type { EventStream } from '../streams/event-stream.js';",
    `import type { ${named.join(', ')} } from './operation-types.js';`,
    "import type { PagePromise } from './list-page.js';",
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
}

/**
 * The list of every operation function, in catalog order, that `createClient` makes its methods
 * of: a list, not a namespace import, so a bundle of one function leaves the others out.
 */
export function renderEveryFunctionFile(): string {
  const names = (types.operations as readonly Operation[]).map(functionName);
  return [
    '/**',
    ' * Every operation function, in catalog order: what `createClient` makes its methods of.',
    ' *',
    ' * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails',
    ' * when it falls behind. Do not edit.',
    ' */',
    `import { ${names.join(', ')} } from './operations.js';`,
    '',
    `export const everyFunction = [${names.join(', ')}] as const;`,
    '',
  ].join('\n');
}
