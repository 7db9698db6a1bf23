import {
  type AnySchema,
  fieldDescription,
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
  // A union of a number and its string form (query numbers: offset, limit) reads as a number.
  if (
    base.type === 'union' &&
    (base as unknown as { options: AnySchema[] }).options.some(
      (option) => baseSchema(option).type === 'number',
    )
  ) {
    return 'number';
  }
  // A union of a boolean and its string form (query booleans) reads as a boolean.
  if (
    base.type === 'union' &&
    (base as unknown as { options: AnySchema[] }).options.some(
      (option) => baseSchema(option).type === 'boolean',
    )
  ) {
    return 'boolean';
  }
  // A union of a list and its comma-separated form (`--category console,network`) reads as text.
  if (
    base.type === 'union' &&
    (base as unknown as { options: AnySchema[] }).options.some(
      (option) => baseSchema(option).type === 'string',
    )
  ) {
    return 'string';
  }
  return 'json';
}

const kebab = (field: string) => field.replaceAll('_', '-');

/**
 * Fields whose flag would be a global flag's name: a credential provider's `token` is
 * `--provider-token`, because `--token` is the API token of every command.
 */
const RENAMED_FIELDS: Record<string, string> = { token: 'provider-token' };

/**
 * Object fields given as one flag per entry (the entry's field is dotted: `profile.id`), and how
 * each entry's flag is named. A browser's `profile` becomes `--profile-id`, `--profile-name` and
 * `--save-changes`, because `--profile` is the config profile of every command; a proxy's
 * `config` becomes `--host`, `--port`, `--username`, `--password`.
 */
const EXPANDED_FIELDS: Record<string, (entry: string) => string> = {
  profile: (entry) => (entry === 'save_changes' ? 'save-changes' : `profile-${kebab(entry)}`),
  config: (entry) => kebab(entry),
};

/** What each expanded flag says in help. */
const EXPANDED_DESCRIPTIONS: Record<string, string> = {
  'profile.id': 'browser profile to load, by id (--profile is the config profile)',
  'profile.name': 'browser profile to load, by name',
  'profile.save_changes': "save the browser's state into its profile when it ends",
  'config.host': "proxy's host name or IP address",
  'config.port': "proxy's port",
  'config.username': 'username the proxy asks for',
  'config.password': 'password the proxy asks for (- reads it from stdin)',
};

/** The entries of an object schema (under wrappers), or undefined for any other schema. */
function objectEntries(schema: AnySchema): Record<string, AnySchema> | undefined {
  const base = baseSchema(schema) as { type: string; entries?: Record<string, AnySchema> };
  return base.type.endsWith('object') && base.entries ? base.entries : undefined;
}

/** The value placeholder of a flag: its unit when the description names one (`<ms>`). */
function placeholderOf(kind: FlagKind, description: string | undefined): string {
  if (kind !== 'number' || !description) return PLACEHOLDERS[kind];
  if (/\bms\b/.test(description)) return '<ms>';
  if (/\bseconds\b/.test(description)) return '<seconds>';
  if (/\bpercent\b/.test(description)) return '<percent>';
  if (/\bpixels\b/.test(description)) return '<px>';
  return PLACEHOLDERS[kind];
}

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
    .flatMap((field): FlagSpec[] => {
      const schema = entries[field] as AnySchema;
      const nested = EXPANDED_FIELDS[field] && objectEntries(schema);
      if (nested) {
        // A pool's browsers never save into their profile: no --save-changes there.
        const isPool = operation.name.startsWith('browserPools.');
        return Object.entries(nested)
          .filter(([entry]) => !(isPool && entry === 'save_changes'))
          .map(([entry, entrySchema]) => {
            const kind = flagKindOf(entrySchema);
            const dotted = `${field}.${entry}`;
            const description =
              EXPANDED_DESCRIPTIONS[dotted] ??
              fieldDescription(entrySchema) ??
              entry.replaceAll('_', ' ');
            return {
              name: (EXPANDED_FIELDS[field] as (entry: string) => string)(entry),
              kind,
              field: dotted,
              placeholder: placeholderOf(kind, description),
              description,
            };
          });
      }
      const kind = flagKindOf(schema);
      const described = fieldDescription(schema);
      const description = described
        ? `${described}${kind === 'json' && !described.includes('JSON') ? ' (JSON)' : ''}`
        : kind === 'json'
          ? `${field} as JSON`
          : field.replaceAll('_', ' ');
      return [
        {
          name: RENAMED_FIELDS[field] ?? kebab(field),
          kind,
          field,
          placeholder: placeholderOf(kind, described),
          description,
        },
      ];
    });
}
