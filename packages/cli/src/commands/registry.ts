import { authSet } from './auth.js';
import { browserSet } from './browsers.js';
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

/** Every file's groups and commands, in help order (`cli.test.ts` checks each group has some). */
const SETS: readonly CommandSet[] = [
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
  // Completion lists every group and command, its own included.
  completionSet(() => XB),
];

/** Every group and command of `xb`. */
const XB: CommandSet = {
  groups: SETS.flatMap((set) => set.groups),
  commands: SETS.flatMap((set) => set.commands),
};

/** The command groups of `xb`, in help order. */
export const GROUPS: readonly CommandGroup[] = XB.groups;

/** Every command of `xb`. */
export const COMMANDS: readonly CommandSpec[] = XB.commands;

/** The command `xb <group> <name>`, or the group's own command (`xb completion <shell>`). */
export function findCommand(group: string, name: string | undefined): CommandSpec | undefined {
  return (
    COMMANDS.find((command) => command.group === group && command.name === '') ??
    COMMANDS.find((command) => command.group === group && command.name === name)
  );
}
