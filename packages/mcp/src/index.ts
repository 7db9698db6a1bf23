export {
  createMcpEndpoint,
  DEFAULT_MAX_BODY_BYTES,
  type McpEndpointOptions,
} from './http.js';
export { bounded, DEFAULT_MAX_TEXT_CHARS } from './results.js';
export { createMcpServer, type McpServerOptions } from './server.js';
export type { ToolContext, ToolDefinition } from './tool.js';
export { TOOLS } from './tools/index.js';
export { VERSION } from './version.js';

import { TOOLS } from './tools/index.js';

/** The names of the tools the server lists. */
export const TOOL_NAMES: readonly string[] = TOOLS.map((tool) => tool.name);
