import { type Operation, type OperationName, operations, schemaEntries } from '@x/types';
import type { Colors } from '../output/colors.js';
import { renderRecord, renderTable } from '../output/format.js';
import type { ArgSpec, CommandContext, CommandGroup, CommandSet, CommandSpec } from './command.js';
import { operationCommand } from './define.js';

/*
 * Commands derived from the catalog, for operations no command file serves: an area added to the
 * service is in `xb` at once, as `xb <group> <verb> <path parameters> --<field> …`, with its
 * flags, help and examples from the catalog. A command file of its own (a table that reads
 * well, secrets from stdin, a stream followed) replaces them operation by operation.
 */

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** Whether a command made of flags and a JSON answer can call it (no upload, stream or file). */
function isDerivable(operation: Operation): boolean {
  if (operation.body && operation.body.encoding !== 'json') return false;
  return Object.values(operation.responses).every(
    (response) => response.kind === 'json' || response.kind === 'none',
  );
}

/** The path parameters, in the order the path names them. */
function pathFields(operation: Operation): string[] {
  return [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, field]) => field as string);
}

/**
 * The group and name of a derived command: beside the hand-made commands of its prefix, in a
 * group that is not a command itself (`xb deploy <dir>` would take every name given after it).
 */
function placeOf(
  operation: Operation,
  served: readonly (readonly [OperationName, string])[],
  commandGroups: ReadonlySet<string>,
): { group: string; name: string } {
  const segments = operation.name.split('.');
  for (let length = segments.length - 1; length > 0; length -= 1) {
    const prefix = `${segments.slice(0, length).join('.')}.`;
    const groups = served
      .filter(([name, group]) => name.startsWith(prefix) && !commandGroups.has(group))
      .map(([, group]) => group)
      .sort();
    if (groups.length === 0) continue;
    // The group most of the prefix's commands are in.
    const group = groups.reduce((best, group) =>
      groups.filter((g) => g === group).length > groups.filter((g) => g === best).length
        ? group
        : best,
    );
    return { group, name: segments.slice(length).map(kebab).join('-') };
  }
  return {
    group: kebab(segments[0] as string),
    name: segments.slice(1).map(kebab).join('-'),
  };
}

/** The C0 and C1 control characters and DEL (built from codes: the text has none to misread). */
const CONTROL = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(0x1f)}${String.fromCharCode(0x7f)}-${String.fromCharCode(0x9f)}]`,
  'g',
);

/**
 * Text from the service as a terminal shows it: control characters (an escape sequence that
 * would restyle the terminal, a line break that would forge a row) written out as `\u001b`.
 */
const printable = (text: string) =>
  text.replace(
    CONTROL,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** A value as one line: a scalar as it is, anything else as compact JSON, made printable. */
const cell = (value: unknown) =>
  value === undefined || value === null
    ? '-'
    : printable(typeof value === 'object' ? JSON.stringify(value) : String(value));

/** Records as a table of their first few scalar fields (`--json` prints them whole). */
function recordTable(colors: Colors, records: readonly unknown[]): string {
  const first = records[0] as Record<string, unknown>;
  const columns = Object.keys(first)
    .filter((key) => ['string', 'number', 'boolean'].includes(typeof first[key]))
    .slice(0, 6);
  return renderTable(
    colors,
    columns.map((column) => printable(column.toUpperCase())),
    records.map((record) =>
      columns.map((column) => cell((record as Record<string, unknown>)[column])),
    ),
  );
}

/** What a person sees of any answer: a table for a list, aligned fields for a record. */
export function showAnswer(context: CommandContext, result: unknown): string {
  const { colors } = context;
  if (result === undefined || result === null) return `${colors.green('✓')} Done.`;
  if (Array.isArray(result)) {
    return result.length === 0 ? colors.dim('None.') : recordTable(colors, result);
  }
  if (typeof result === 'object') {
    const fields = Object.entries(result).map(([key, value]) => [printable(key), cell(value)]);
    return renderRecord(colors, Object.fromEntries(fields));
  }
  return cell(result);
}

const OPTIONAL = new Set(['optional', 'exact_optional', 'nullish', 'undefinedable']);

/** The example of a derived command: its arguments, and the flags it cannot go without. */
function exampleOf(operation: Operation, spec: CommandSpec): string {
  const entries: Record<string, { type: string }> = {
    ...schemaEntries(operation.query),
    ...schemaEntries(operation.body?.schema),
  };
  const required = spec.flags
    .filter((flag) => flag.field !== undefined && entries[flag.field] !== undefined)
    .filter((flag) => !OPTIONAL.has((entries[flag.field as string] as { type: string }).type))
    .map((flag) => `--${flag.name}${flag.placeholder ? ` ${flag.placeholder}` : ''}`);
  return ['xb', spec.group, spec.name, ...spec.args.map((arg) => arg.name), ...required].join(' ');
}

/**
 * The commands the catalog gives for every operation that no command of these sets serves, and
 * the groups they add: appended after the sets' own.
 */
export function catalogCommands(sets: readonly CommandSet[]): CommandSet {
  const commands = sets.flatMap((set) => set.commands);
  const served = commands.flatMap((command) =>
    [command.operation, ...(command.alsoServes ?? [])]
      .filter((name): name is OperationName => name !== undefined)
      .map((name) => [name, command.group] as const),
  );
  const taken = new Set(commands.map((command) => `${command.group} ${command.name}`));
  // Groups that are a command of their own (`xb deploy <dir>`): no name after them is a command.
  const commandGroups = new Set(
    commands.filter((command) => command.name === '').map((command) => command.group),
  );
  const known = new Set(sets.flatMap((set) => set.groups.map((group) => group.name)));
  const derived: CommandSpec[] = [];
  const added = new Map<string, string[]>();
  for (const operation of operations as readonly Operation[]) {
    const name = operation.name as OperationName;
    if (served.some(([servedName]) => servedName === name) || !isDerivable(operation)) continue;
    const place = placeOf(operation, served, commandGroups);
    // A name a command file already uses, a group that is a command, or an operation named by
    // one segment (no verb) is left to a file (the catalog test then says so).
    if (
      place.name === '' ||
      commandGroups.has(place.group) ||
      taken.has(`${place.group} ${place.name}`)
    )
      continue;
    taken.add(`${place.group} ${place.name}`);
    const args: ArgSpec[] = pathFields(operation).map((field) => ({
      name: `<${field.replaceAll('_', '-')}>`,
      field,
    }));
    const command = operationCommand(place.group, place.name, name, {
      args,
      example: '',
      show: showAnswer,
    });
    derived.push({ ...command, example: exampleOf(operation, command) });
    if (!known.has(place.group))
      added.set(place.group, [...(added.get(place.group) ?? []), place.name]);
  }
  const groups: CommandGroup[] = [...added].map(([group, names]) => ({
    name: group,
    summary: `The ${group} operations of the service: ${names.join(', ')}`,
  }));
  return { groups, commands: derived };
}
