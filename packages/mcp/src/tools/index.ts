import type { ToolDefinition } from '../tool.js';
import { browserCurl } from './browser-curl.js';
import { manageBrowsers } from './browsers.js';
import { computerAction } from './computer-action.js';
import { getConnectionContext } from './connection-context.js';
import { execCommand } from './exec-command.js';
import { executePlaywrightCode } from './execute-playwright-code.js';
import { manageProfiles } from './profiles.js';
import { manageReplays } from './replays.js';

/** Every tool the server lists, in the order a client shows them. */
// biome-ignore lint/suspicious/noExplicitAny: each tool keeps its own input type
export const TOOLS: readonly ToolDefinition<any>[] = [
  manageBrowsers,
  getConnectionContext,
  computerAction,
  executePlaywrightCode,
  execCommand,
  browserCurl,
  manageProfiles,
  manageReplays,
];
