import type { CommandSpec, FlagSpec } from './commands/command.js';
import { COMMANDS, GROUPS } from './commands/registry.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import { GLOBAL_FLAGS } from './global-flags.js';

function flagLines(flags: readonly FlagSpec[]): string[] {
  const labels = flags.map((flag) => {
    const long = flag.kind === 'boolean' && flag.field ? `--[no-]${flag.name}` : `--${flag.name}`;
    return `${flag.short ? `-${flag.short}, ` : '    '}${long}${flag.placeholder ? ` ${flag.placeholder}` : ''}`;
  });
  const width = Math.max(...labels.map((label) => label.length));
  return labels.map((label, index) => `  ${label.padEnd(width)}  ${flags[index]?.description}`);
}

/** `xb --help`: the groups, global flags and exit codes. */
export function mainHelp(): string {
  const width = Math.max(...GROUPS.map((group) => group.name.length));
  return [
    'xb: the command line for the cloud browser service.',
    '',
    'Usage: xb <group> <command> [arguments] [flags]',
    '',
    'Groups:',
    ...GROUPS.map((group) => `  ${group.name.padEnd(width)}  ${group.summary}`),
    '',
    'Global flags:',
    ...flagLines(GLOBAL_FLAGS),
    '',
    EXIT_CODES_HELP,
    '',
    'Example: XB_TOKEN=… xb pools get checkout',
    'Run `xb <group> --help` for a group’s commands, `xb <group> <command> --help` for one command.',
  ].join('\n');
}

/** `xb <group> --help`: the group's commands. */
export function groupHelp(group: string): string {
  const commands = COMMANDS.filter((command) => command.group === group);
  const usages = commands.map((command) => usageLine(command));
  const width = Math.max(...usages.map((usage) => usage.length));
  return [
    `${GROUPS.find((entry) => entry.name === group)?.summary}.`,
    '',
    'Commands:',
    ...commands.map((command, index) => `  ${usages[index]?.padEnd(width)}  ${command.summary}`),
    '',
    `Run \`xb ${group} <command> --help\` for its flags and an example.`,
  ].join('\n');
}

function usageLine(command: CommandSpec): string {
  return ['xb', command.group, command.name, ...command.args.map((arg) => arg.name)]
    .filter(Boolean)
    .join(' ');
}

/** `xb <group> <command> --help`: usage, flags and an example. */
export function commandHelp(command: CommandSpec): string {
  return [
    command.summary,
    '',
    `Usage: ${usageLine(command)}${command.flags.length ? ' [flags]' : ''}`,
    ...(command.flags.length ? ['', 'Flags:', ...flagLines(command.flags)] : []),
    '',
    'Global flags: --json, --no-color, --base-url, --token, --project, --profile, --request-timeout (see xb --help)',
    '',
    `Example: ${command.example}`,
  ].join('\n');
}
