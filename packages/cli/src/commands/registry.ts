import { authCommands } from './auth.js';
import { browserCommands } from './browsers.js';
import type { CommandSpec } from './command.js';
import { completionCommand } from './completion.js';
import { computerCommands } from './computer.js';
import { configCommands } from './config.js';
import { credentialCommands, credentialProviderCommands } from './credentials.js';
import { curlCommands } from './curl.js';
import { deployCommands } from './deploy.js';
import { extensionCommands } from './extensions.js';
import { fsCommands } from './fs.js';
import { logCommands } from './logs.js';
import { mcpCommand } from './mcp.js';
import { auditCommands, keyCommands, nodeCommands, projectCommands } from './org.js';
import { playwrightCommands } from './playwright.js';
import { poolCommands } from './pools.js';
import { processCommands } from './processes.js';
import { profileCommands } from './profiles.js';
import { telemetryCommands } from './telemetry.js';

/** Every command of `xb`. */
export const COMMANDS: readonly CommandSpec[] = [
  ...browserCommands,
  ...computerCommands,
  ...processCommands,
  ...playwrightCommands,
  ...logCommands,
  ...telemetryCommands,
  ...curlCommands,
  ...fsCommands,
  ...poolCommands,
  ...extensionCommands,
  ...deployCommands,
  ...profileCommands,
  ...credentialCommands,
  ...credentialProviderCommands,
  ...authCommands,
  ...projectCommands,
  ...keyCommands,
  ...auditCommands,
  ...nodeCommands,
  ...configCommands,
  mcpCommand,
  // Completion lists every command, itself included.
  completionCommand(() => COMMANDS),
];

/** The command `xb <group> <name>`, or the group's own command (`xb completion <shell>`). */
export function findCommand(group: string, name: string | undefined): CommandSpec | undefined {
  return (
    COMMANDS.find((command) => command.group === group && command.name === '') ??
    COMMANDS.find((command) => command.group === group && command.name === name)
  );
}
