import type { AnySchema, Operation } from './operation.js';

/** The field names an operation takes, by where they travel. */
export interface OperationFields {
  readonly path: readonly string[];
  readonly query: readonly string[];
  readonly body: readonly string[];
}

/** The object entries inside a schema, looking through `optional` and `pipe` wrappers. */
export function schemaEntries(schema: AnySchema | undefined): Record<string, AnySchema> {
  let current = schema as
    | { entries?: Record<string, AnySchema>; wrapped?: unknown; pipe?: unknown[] }
    | undefined;
  while (current && !current.entries) {
    current = (current.wrapped ?? current.pipe?.[0]) as typeof current;
  }
  return current?.entries ?? {};
}

const fieldsCache = new WeakMap<Operation, OperationFields>();

/**
 * The names of an operation's path, query and body fields. Callers pass them side by side in one
 * object; these lists say where each one goes.
 */
export function operationFields(operation: Operation): OperationFields {
  let fields = fieldsCache.get(operation);
  if (!fields) {
    fields = {
      path: Object.keys(schemaEntries(operation.pathParams)),
      query: Object.keys(schemaEntries(operation.query)),
      body: Object.keys(schemaEntries(operation.body?.schema)),
    };
    fieldsCache.set(operation, fields);
  }
  return fields;
}
