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
    typeof candidate.name === 'string' &&
    typeof candidate.method === 'string' &&
    typeof candidate.path === 'string' &&
    typeof candidate.responses === 'object' &&
    Array.isArray(candidate.errorStatuses)
  );
}

/** Any operation of the catalog, with its literal types. */
export type CatalogOperation = {
  [K in keyof AreaExports]: AreaExports[K] extends Operation ? AreaExports[K] : never;
}[keyof AreaExports];

/**
 * The catalog: every operation the areas define (`areas.ts`), by name. Nothing lists them again:
 * an operation is in the catalog when its area's file exports it.
 */
export const operations: readonly CatalogOperation[] = (Object.values(areas) as unknown[])
  .filter(isOperation)
  .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

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
