import { parseArgs } from 'node:util';
import { usageError } from './cli-error.js';
import { resolveBrowserNames } from './commands/browser-names.js';
import type { ArgSpec, CommandContext, CommandSpec, FlagSpec } from './commands/command.js';
import { COMPLETE_COMMAND, complete } from './commands/complete.js';
import { COMMANDS, findCommand, GROUPS } from './commands/registry.js';
import { resolveSettings } from './config/settings.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { GLOBAL_FLAGS } from './global-flags.js';
import { commandHelp, groupHelp, mainHelp } from './help.js';
import type { CliIo } from './io.js';
import { createColors, shouldColor } from './output/colors.js';
import { formatReport, reportError } from './report-error.js';
import { VERSION } from './version.js';

type ParseOptions = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

function parseOptions(flags: readonly FlagSpec[]): ParseOptions {
  const options: ParseOptions = {};
  for (const flag of flags) {
    options[flag.name] = {
      type: flag.kind === 'boolean' ? 'boolean' : 'string',
      ...(flag.short ? { short: flag.short } : {}),
    };
  }
  return options;
}

/** The group and command named in argv: the first two words that are not flags or flag values. */
function commandWords(argv: readonly string[]): string[] {
  const takesValue = new Set(
    GLOBAL_FLAGS.filter((flag) => flag.kind !== 'boolean').map((flag) => `--${flag.name}`),
  );
  const words: string[] = [];
  for (let index = 0; index < argv.length && words.length < 2; index++) {
    const word = argv[index] as string;
    if (word === '--') break;
    if (takesValue.has(word)) index++;
    else if (!word.startsWith('-')) words.push(word);
  }
  return words;
}

/** Converts a flag's text to what the operation takes, or says how to write it. */
function flagValue(flag: FlagSpec, raw: unknown): unknown {
  if (flag.kind === 'boolean' || typeof raw !== 'string') return raw;
  if (flag.kind === 'number') {
    const number = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(number))
      throw usageError(`--${flag.name} must be a number, e.g. --${flag.name} 10; got "${raw}".`);
    return number;
  }
  if (flag.kind === 'json') {
    // `-`: the command reads the field from stdin (`--values -`); elsewhere the call refuses it.
    if (raw === '-') return raw;
    try {
      return JSON.parse(raw);
    } catch {
      throw usageError(
        `--${flag.name} must be JSON, e.g. --${flag.name} '{"key":"value"}'; got ${raw}.`,
      );
    }
  }
  return raw;
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** " Did you mean …?" for a near miss (a typo of one or two letters), else nothing. */
function suggest(word: string, candidates: readonly string[]): string {
  const close = candidates.find((candidate) => editDistance(word, candidate) <= 2);
  return close ? ` Did you mean "${close}"?` : '';
}

/** A positional read as a number; anything else is a usage error naming it. */
function numberArg(arg: ArgSpec, value: string | string[]): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) throw usageError(`${arg.name} must be a number, got "${value}".`);
  return number;
}

/** Parses argv for a command: its positionals by name, its flags converted, and the operation input. */
function parseCommand(command: CommandSpec, argv: readonly string[]) {
  const flags = [...GLOBAL_FLAGS, ...command.flags];
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: parseOptions(flags),
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /^Unknown option '(-[^']+)'/.exec(message)?.[1];
    if (unknown !== undefined) {
      throw usageError(
        `Unknown flag ${unknown}.${suggest(
          unknown,
          flags.map((flag) => `--${flag.name}`),
        )} See \`xb ${`${command.group} ${command.name}`.trim()} --help\`.`,
      );
    }
    const ambiguous = /^Option '(-[^']+)' argument is ambiguous/.exec(message);
    // A value that starts with a dash reads as a flag; Node's own wording points at the fix.
    const said = ambiguous
      ? `${ambiguous[1]} needs a value; write one that starts with a dash as ${ambiguous[1]}=-1`
      : (message.split('\n')[0] ?? message).replace(/\.$/, '');
    throw usageError(`${said}. See \`xb ${`${command.group} ${command.name}`.trim()} --help\`.`);
  }
  const words = command.name === '' ? 1 : 2;
  const positionals = parsed.positionals.slice(words);
  const args: Record<string, string | string[] | undefined> = {};
  const input: Record<string, unknown> = {};
  const usage =
    `Usage: xb ${command.group} ${command.name} ${command.args.map((arg) => arg.name).join(' ')}`
      .replace(/\s+/g, ' ')
      .trim();
  for (const [index, arg] of command.args.entries()) {
    const value = arg.isVariadic ? positionals.slice(index) : positionals[index];
    if (value === undefined && !arg.isOptional) throw usageError(`Missing ${arg.name}. ${usage}`);
    args[arg.name] = value;
    if (arg.field && value !== undefined)
      input[arg.field] = arg.isNumber ? numberArg(arg, value) : value;
  }
  if (!command.args.some((arg) => arg.isVariadic) && positionals.length > command.args.length) {
    throw usageError(`Unexpected argument "${positionals[command.args.length]}". ${usage}`);
  }
  const values: Record<string, unknown> = {};
  for (const flag of flags) {
    const value = flagValue(flag, parsed.values[flag.name]);
    values[flag.name] = value;
    if (flag.field && value !== undefined) setField(input, flag.field, value);
  }
  return { args, input, values };
}

/** Sets an input field; a dotted one (`profile.id`) inside its object, made when missing. */
function setField(input: Record<string, unknown>, field: string, value: unknown): void {
  const [head, ...rest] = field.split('.');
  if (head === undefined) return;
  if (rest.length === 0) {
    input[head] = value;
    return;
  }
  if (input[head] === undefined) input[head] = {};
  setField(input[head] as Record<string, unknown>, rest.join('.'), value);
}

/**
 * Runs `xb` with `argv` (without the program name) against `io`, and resolves to the exit code.
 * Nothing here exits the process: the bin is a thin shim around this.
 *
 * @example
 * const code = await run(['pools', 'get', 'checkout', '--json'], nodeIo());
 */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const signal = io.signal ?? new AbortController().signal;
  const noColor = argv.includes('--no-color');
  const errorColors = createColors(shouldColor(io.stderr.isTTY, io.env, noColor));
  const println = (text: string) => io.stdout.write(`${text}\n`);
  if (argv[0] === COMPLETE_COMMAND) {
    await complete(argv.slice(1), io);
    return EXIT_CODES.ok;
  }
  try {
    const [group, name] = commandWords(argv);
    const wantsHelp = argv.includes('--help') || argv.includes('-h');
    if ((argv.includes('--version') || argv.includes('-v')) && group === undefined) {
      println(VERSION);
      return EXIT_CODES.ok;
    }
    if (group === undefined) {
      const unknown = argv.find(
        (word) =>
          word.startsWith('-') &&
          word !== '-v' &&
          word !== '-h' &&
          !GLOBAL_FLAGS.some((flag) => word.split('=')[0] === `--${flag.name}`) &&
          !GLOBAL_FLAGS.some((flag) => word === `--no-${flag.name}`),
      );
      if (unknown !== undefined) {
        throw usageError(
          `Unknown flag ${unknown.split('=')[0]}.${suggest(
            unknown.split('=')[0] as string,
            GLOBAL_FLAGS.map((flag) => `--${flag.name}`),
          )} See \`xb --help\`.`,
        );
      }
      if (wantsHelp) {
        println(mainHelp());
        return EXIT_CODES.ok;
      }
      io.stderr.write(`${mainHelp()}\n`);
      return EXIT_CODES.usage;
    }
    if (!GROUPS.some((entry) => entry.name === group)) {
      throw usageError(
        `Unknown command group "${group}".${suggest(
          group,
          GROUPS.map((entry) => entry.name),
        )} See \`xb --help\`.`,
      );
    }
    const command = findCommand(group, name);
    if (!command) {
      if (name === undefined && wantsHelp) {
        println(groupHelp(group));
        return EXIT_CODES.ok;
      }
      const names = COMMANDS.filter((entry) => entry.group === group).map((entry) => entry.name);
      const hint =
        name === undefined
          ? 'Give a command: see'
          : `Unknown command "${name}" in ${group}.${suggest(name, names)} See`;
      throw usageError(`${hint} \`xb ${group} --help\`.`);
    }
    if (wantsHelp) {
      println(commandHelp(command));
      return EXIT_CODES.ok;
    }
    const { args, input, values } = parseCommand(command, argv);
    const isJson = values.json === true;
    const colors = createColors(shouldColor(io.stdout.isTTY, io.env, noColor) && !isJson);
    const connection = {
      baseUrl: values['base-url'] as string | undefined,
      token: values.token as string | undefined,
      profile: values.profile as string | undefined,
      project: values.project as string | undefined,
    };
    let client: Promise<import('@x/client').Client> | undefined;
    const context: CommandContext = {
      io,
      args,
      flags: values,
      input,
      isJson,
      colors,
      errorColors,
      showsProgress: Boolean(io.stderr.isTTY) && !isJson,
      signal,
      connection,
      client: () => {
        client ??= (async () => {
          const settings = await resolveSettings(connection, io.env);
          if (!settings.token) {
            throw usageError(
              'No token: pass --token, set XB_TOKEN, or save one with `xb config set token -` (reads it from stdin).',
            );
          }
          const { catalogChecks, createClient } = await import('@x/client');
          const seconds = values['request-timeout'] as number | undefined;
          return createClient({
            baseUrl: settings.baseUrl,
            token: settings.token,
            // A bad flag is named before anything is sent, and answered as a usage error.
            checks: catalogChecks,
            ...(settings.project ? { project: settings.project } : {}),
            ...(io.fetch ? { fetch: io.fetch } : {}),
            ...(seconds === undefined ? {} : { timeout: seconds * 1000 }),
          });
        })();
        return client;
      },
      print: println,
      printJson: (value) => println(JSON.stringify(value)),
    };
    await resolveBrowserNames(command, context, args);
    await command.run(context);
    return EXIT_CODES.ok;
  } catch (error) {
    const report = await reportError(error, signal);
    io.stderr.write(formatReport(report, errorColors));
    return report.exitCode;
  }
}
