import {
  type AnySchema,
  type Operation,
  type OperationName,
  operationByName,
  operationFields,
  schemaEntries,
} from '@x/types';
import type { ArgSpec, FlagKind, FlagSpec } from './command.js';

/** The schema under `optional`, `nullable` and `pipe` wrappers. */
function baseSchema(schema: AnySchema): { type: string } {
  let current = schema as { type: string; wrapped?: AnySchema; pipe?: AnySchema[] };
  while (current.wrapped || (current.type !== 'union' && current.pipe)) {
    current = (current.wrapped ?? current.pipe?.[0]) as typeof current;
  }
  return current;
}

/** How a flag of this schema is read from the command line. */
export function flagKindOf(schema: AnySchema): FlagKind {
  const base = baseSchema(schema);
  if (base.type === 'boolean') return 'boolean';
  if (base.type === 'number') return 'number';
  if (base.type === 'string' || base.type === 'picklist') return 'string';
  // A union of a boolean and its string form (query booleans) reads as a boolean.
  if (
    base.type === 'union' &&
    (base as unknown as { options: AnySchema[] }).options.some(
      (option) => baseSchema(option).type === 'boolean',
    )
  ) {
    return 'boolean';
  }
  return 'json';
}

const kebab = (field: string) => field.replaceAll('_', '-');

const PLACEHOLDERS: Record<FlagKind, string> = {
  boolean: '',
  number: '<n>',
  string: '<text>',
  json: '<json>',
};

/**
 * The flags of an operation's body and query fields that no positional argument fills, derived
 * from the catalog: `delay` becomes `--delay <n>`, `reuse` becomes `--reuse` / `--no-reuse`.
 */
export function operationFlags(operationName: OperationName, args: readonly ArgSpec[]): FlagSpec[] {
  const operation: Operation = operationByName(operationName);
  const fields = operationFields(operation);
  const taken = new Set(args.map((arg) => arg.field));
  const entries = { ...schemaEntries(operation.query), ...schemaEntries(operation.body?.schema) };
  return [...fields.query, ...fields.body]
    .filter((field) => !taken.has(field))
    .map((field) => {
      const kind = flagKindOf(entries[field] as AnySchema);
      return {
        name: kebab(field),
        kind,
        field,
        placeholder: PLACEHOLDERS[kind],
        description: kind === 'json' ? `${field} as JSON` : field.replaceAll('_', ' '),
      };
    });
}
