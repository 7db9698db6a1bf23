import type { Operation } from './operation.js';
import { type CatalogOperation, operations } from './operations.js';

/** Names of the `{param}` placeholders of a path template, in order. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
}

/**
 * Encodes one path segment. `.` and `..` cannot travel as a segment at all (URL parsers drop
 * them even when percent-encoded), which is why names may not be only dots.
 */
function encodeSegment(name: string, value: string): string {
  if (value === '.' || value === '..') {
    throw new TypeError(`buildPath: path parameter "${name}" cannot be "${value}"`);
  }
  return encodeURIComponent(value);
}

/** The path of an operation with its parameters filled in and percent-encoded. */
export function buildPath(
  operation: Pick<Operation, 'path'>,
  params: Readonly<Record<string, string>>,
): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') {
      throw new TypeError(`buildPath: missing path parameter "${name}" for ${operation.path}`);
    }
    return encodeSegment(name, value);
  });
}

/** Decodes one path segment, or undefined when its escapes are malformed. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape (`%zz`) names no resource: the path simply does not match.
    return undefined;
  }
}

/** Splits a pathname into raw segments, ignoring one trailing slash. */
function splitPath(pathname: string): string[] {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return trimmed.split('/').slice(1);
}

/** A compiled path template: literal segments and parameter names. */
interface CompiledPath {
  readonly segments: readonly ({ literal: string } | { param: string })[];
}

const compiledPaths = new WeakMap<Operation, CompiledPath>();

function compile(operation: Operation): CompiledPath {
  let compiled = compiledPaths.get(operation);
  if (!compiled) {
    compiled = {
      segments: splitPath(operation.path).map((segment) => {
        const param = /^\{([^}]+)\}$/.exec(segment)?.[1];
        return param ? { param } : { literal: segment };
      }),
    };
    compiledPaths.set(operation, compiled);
  }
  return compiled;
}

/** Matches raw segments against one template; the decoded params, or undefined. */
function matchSegments(
  compiled: CompiledPath,
  segments: readonly string[],
): Record<string, string> | undefined {
  if (compiled.segments.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of compiled.segments.entries()) {
    const raw = segments[index] as string;
    if ('literal' in part) {
      if (part.literal !== raw) return undefined;
      continue;
    }
    const value = decodeSegment(raw);
    if (value === undefined || value === '') return undefined;
    params[part.param] = value;
  }
  return params;
}

/** A matched operation and its decoded path parameters. */
export interface OperationMatch<TOperation extends Operation = Operation> {
  readonly operation: TOperation;
  readonly params: Record<string, string>;
}

/**
 * Finds the operation for a method and a raw (still percent-encoded) pathname, among the whole
 * catalog or `within`. Literal segments win over parameters, so a fixed path is never read as a
 * template that happens to fit it.
 */
export function matchOperation<TOperation extends Operation = CatalogOperation>(
  method: string,
  pathname: string,
  within: readonly TOperation[] = operations as readonly Operation[] as readonly TOperation[],
): OperationMatch<TOperation> | undefined {
  const upper = method.toUpperCase();
  const segments = splitPath(pathname);
  let best: { match: OperationMatch<TOperation>; literals: number } | undefined;
  for (const operation of within) {
    if (operation.method !== upper) continue;
    const compiled = compile(operation);
    const params = matchSegments(compiled, segments);
    if (!params) continue;
    const literals = compiled.segments.filter((part) => 'literal' in part).length;
    if (!best || literals > best.literals) best = { match: { operation, params }, literals };
  }
  return best?.match;
}

/** The methods some operation accepts at a raw pathname: tells 405 from 404. */
export function allowedMethods(
  pathname: string,
  within: readonly Operation[] = operations,
): string[] {
  const segments = splitPath(pathname);
  const methods = new Set<string>();
  for (const operation of within) {
    if (matchSegments(compile(operation), segments)) methods.add(operation.method);
  }
  return [...methods];
}
