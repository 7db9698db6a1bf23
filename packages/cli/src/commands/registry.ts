import { authSet } from './auth.js';
import { browserSet } from './browsers.js';
import { catalogCommands } from './catalog-commands.js';
import type { CommandGroup, CommandSet, CommandSpec } from './command.js';
import { completionSet } from './completion.js';
import { computerSet } from './computer.js';
import { configSet } from './config.js';
import { credentialSet } from './credentials.js';
import { curlSet } from './curl.js';
import { deploySet } from './deploy.js';
import { extensionSet } from './extensions.js';
import { fsSet } from './fs.js';
import { logSet } from './logs.js';
import { mcpSet } from './mcp.js';
import { orgSet } from './org.js';
import { playwrightSet } from './playwright.js';
import { poolSet } from './pools.js';
import { processSet } from './processes.js';
import { profileSet } from './profiles.js';
import { telemetrySet } from './telemetry.js';

/**
 * Every file's groups and commands, in help order (`cli.test.ts` checks each group has some).
 * Operations no file serves get commands from the catalog (`catalog-commands.ts`).
 */
export const SETS: readonly CommandSet[] = [
  browserSet,
  curlSet,
  computerSet,
  processSet,
  playwrightSet,
  logSet,
  telemetrySet,
  fsSet,
  poolSet,
  extensionSet,
  deploySet,
  profileSet,
  credentialSet,
  authSet,
  orgSet,
  mcpSet,
  configSet,
];

/** The groups and commands of these sets, those the catalog gives, and `xb completion`. */
export function commandsOf(sets: readonly CommandSet[]): CommandSet {
  // Completion lists every group and command, its own included.
  const all = [...sets, catalogCommands(sets), completionSet(() => xb)];
  const xb: CommandSet = {
    groups: all.flatMap((set) => set.groups),
    commands: all.flatMap((set) => set.commands),
  };
  return xb;
}

/** The command `xb <group> <name>` among these, or the group's own command (`xb deploy <dir>`). */
export function findIn(
  commands: readonly CommandSpec[],
  group: string,
  name: string | undefined,
): CommandSpec | undefined {
  return (
    commands.find((command) => command.group === group && command.name === '') ??
    commands.find((command) => command.group === group && command.name === name)
  );
}

const XB = commandsOf(SETS);

/** The command groups of `xb`, in help order. */
export const GROUPS: readonly CommandGroup[] = XB.groups;

/** Every command of `xb`. */
export const COMMANDS: readonly CommandSpec[] = XB.commands;

/** The command `xb <group> <name>`, or the group's own command (`xb completion <shell>`). */
export function findCommand(group: string, name: string | undefined): CommandSpec | undefined {
  return findIn(COMMANDS, group, name);
}
