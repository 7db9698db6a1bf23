/**
 * Renders each operation as a function of a core, carrying its route (no schema) and upload or
 * stream code only when it needs it, typed with the named types of `render-types.ts`;
 * `render-areas.ts` puts each in its area's file.
 */

import type { Operation } from '@x/types';
import { type Route, routeOf } from '../../src/calls/route.js';
import { exportName, functionName, type OperationTypes, operationDoc } from './render-types.js';

/** Where each helper a function may be defined with comes from, seen from an area's file. */
export const HELPERS = {
  encodeUploadBody: '../uploads/encode-body.js',
  readStreamBody: '../streams/read-body.js',
  defineCall: '../calls/define-call.js',
  defineListCall: '../calls/list-page.js',
} as const;

function literal(route: Route): string {
  const fields = Object.entries(route).map(([key, value]) => {
    if (key === 'serverTimeMs') return `${key}: ${exportName(value)}`;
    if (key !== 'responses') return `${key}: ${JSON.stringify(value)}`;
    const kinds = Object.entries(value).map(([status, kind]) => `${status}: '${kind}'`);
    return `${key}: { ${kinds.join(', ')} }`;
  });
  return `{ ${fields.join(', ')} }`;
}

/** One operation's function, and what it needs from elsewhere. */
export interface RenderedFunction {
  readonly source: string;
  /** Values of @x/types it uses (a server-time bound). */
  readonly values: readonly string[];
  readonly helpers: readonly (keyof typeof HELPERS)[];
}

export function renderFunction(operation: Operation, rendered: OperationTypes): RenderedFunction {
  const route = routeOf(operation);
  const values = route.serverTimeMs ? [exportName(route.serverTimeMs)] : [];
  const kinds = Object.values(route.responses);
  const parts = [
    route.body === 'multipart' || route.body === 'binary' ? 'encodeBody: encodeUploadBody' : '',
    kinds.includes('binary') || kinds.includes('event-stream') ? 'readBody: readStreamBody' : '',
  ].filter(Boolean);
  const define = route.paginated ? 'defineListCall' : 'defineCall';
  const helpers = [define, ...parts.map((part) => part.split(': ')[1])] as (keyof typeof HELPERS)[];
  const args = [literal(route), ...(parts.length > 0 ? [`{ ${parts.join(', ')} }`] : [])];
  const lines = operationDoc(operation).map((line) => ` *${line ? ` ${line}` : ''}`);
  const source =
    `/**\n${lines.join('\n')}\n * \`${operation.name}\`\n */\n` +
    `export const ${functionName(operation)}: ${rendered.signature.replace(/^\(/, '(core: Core, ')} = /* @__PURE__ */ ${define}<${rendered.input}, ${rendered.result}>(${args.join(', ')});`;
  return { source, values, helpers };
}
