import type { ToolDefinition } from '../tool.js';
import { manageApiKeys } from './api-keys.js';
import { manageApps } from './apps.js';
import { manageAuthConnections } from './auth-connections.js';
import { browserCurl } from './browser-curl.js';
import { manageBrowserPools } from './browser-pools.js';
import { manageBrowsers } from './browsers.js';
import { computerAction } from './computer-action.js';
import { getConnectionContext } from './connection-context.js';
import { manageCredentialProviders } from './credential-providers.js';
import { manageCredentials } from './credentials.js';
import { execCommand } from './exec-command.js';
import { executePlaywrightCode } from './execute-playwright-code.js';
import { manageExtensions } from './extensions.js';
import { manageProfiles } from './profiles.js';
import { manageProjects } from './projects.js';
import { manageProxies } from './proxies.js';
import { manageReplays } from './replays.js';
import { browserSnapshot } from './snapshot.js';

/** Every tool the server lists, in the order a client shows them: Kernel's order. */
// biome-ignore lint/suspicious/noExplicitAny: each tool keeps its own input type
export const TOOLS: readonly ToolDefinition<any>[] = [
  manageBrowsers,
  manageProfiles,
  manageBrowserPools,
  manageProxies,
  manageReplays,
  manageExtensions,
  manageApps,
  manageAuthConnections,
  manageCredentials,
  manageCredentialProviders,
  manageProjects,
  manageApiKeys,
  getConnectionContext,
  computerAction,
  browserCurl,
  executePlaywrightCode,
  execCommand,
  // Beyond Kernel's tools.
  browserSnapshot,
];
