import * as areas from '../areas.js';
import type { Operation } from './operation.js';

/** The names of the areas' files, with what each holds. */
type AreaExports = typeof areas;

/**
 * Whether an export of the areas is an operation (as `defineOperation` makes them), not a schema
 * or a constant: the runtime side of `CatalogOperation`.
 */
function isOperation(value: unknown): value is CatalogOperation {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof Operation, unknown>>;
  return (
    ['name', 'clusterRoute', 'summary', 'method', 'path', 'access'].every(
      (key) => typeof candidate[key as keyof Operation] === 'string',
    ) &&
    typeof candidate.responses === 'object' &&
    Array.isArray(candidate.errorStatuses)
  );
}

/** By group, then name: `projects.list` comes before `projects.limits.get`. */
function byGroupThenName(a: Operation, b: Operation): number {
  const group = (name: string) => name.slice(0, name.lastIndexOf('.'));
  const [x, y] =
    group(a.name) === group(b.name) ? [a.name, b.name] : [group(a.name), group(b.name)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Every operation among the areas' exports, in the catalog's order. */
// @__NO_SIDE_EFFECTS__
function collect(exports: Record<string, unknown>): readonly CatalogOperation[] {
  return Object.values(exports).filter(isOperation).sort(byGroupThenName);
}

/** Any operation of the catalog, with its literal types. */
export type CatalogOperation = {
  [K in keyof AreaExports]: AreaExports[K] extends Operation ? AreaExports[K] : never;
}[keyof AreaExports];

/**
 * The catalog: every operation the areas define (`areas.ts`), by group then name. Nothing lists
 * them again: an operation is in the catalog when its area's file exports it.
 */
export const operations = /* @__PURE__ */ collect(areas);

/** The dotted name of an operation of the catalog. */
export type OperationName = CatalogOperation['name'];

/** Finds a catalog operation by its dotted name. */
export function operationByName<TName extends OperationName>(
  name: TName,
): Extract<CatalogOperation, { name: TName }> {
  const found = operations.find((operation) => operation.name === name);
  if (!found) throw new TypeError(`No operation named "${name}" in the catalog`);
  return found as Extract<CatalogOperation, { name: TName }>;
}
