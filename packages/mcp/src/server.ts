import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions, Client } from '@x/client';
import { PROJECT_HEADER } from '@x/types';
import { z } from 'zod';
import { DEFAULT_MAX_TEXT_CHARS, errorResult, messageOf } from './results.js';
import type { ToolDefinition } from './tool.js';
import { TOOLS } from './tools/index.js';
import { VERSION } from './version.js';

/** How to make the MCP server. */
export interface McpServerOptions {
  /**
   * The client every tool call goes through. Its token is the caller's: the service's own
   * authentication, projects, read-only tokens and limits apply to every call as they are.
   */
  readonly client: Client;
  /** Characters of text one answer may carry before it is cut (and says so); default 25,000. */
  readonly maxTextChars?: number;
}

/** What the server tells a client about itself on connecting. */
const INSTRUCTIONS = [
  'Cloud browsers for agents. Start with manage_browsers (action "create"), which returns a session_id; every other browser tool takes it.',
  'Look with computer_action ending in a screenshot, act with computer_action (mouse, keys) or execute_playwright_code (selectors), and delete the browser with manage_browsers when done.',
  'Tools that act in a project take an optional `project` (id or name); without it they act in the project get_connection_context names.',
].join(' ');

/** The `project` input every tool that acts in a project takes. */
const PROJECT_INPUT = z
  .string()
  .min(1)
  .optional()
  .describe(
    'the project to act in, by id or name; default: the project get_connection_context names',
  );

/**
 * The MCP server of the service: every tool, each call made through `client`. Connect it to any
 * transport of the MCP SDK: stdio (`xb mcp`), or Streamable HTTP (`/mcp` of the service).
 *
 * @example
 * const server = createMcpServer({ client: createClient({ baseUrl, token }) });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'xb', title: 'Cloud browsers', version: VERSION },
    { instructions: INSTRUCTIONS },
  );
  const maxTextChars = options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
  for (const tool of TOOLS) register(server, tool as ToolDefinition, options.client, maxTextChars);
  return server;
}

/**
 * Each tool's input schema, made once: `/mcp` makes a server per request, which need not build
 * every tool's schema again. Zod schemas are immutable, so servers share them.
 */
const INPUT_SCHEMAS = new Map<ToolDefinition, z.ZodObject>();

function inputSchemaOf(tool: ToolDefinition): z.ZodObject {
  let schema = INPUT_SCHEMAS.get(tool);
  if (!schema) {
    const input = tool.projectScoped ? { ...tool.input, project: PROJECT_INPUT } : tool.input;
    // Strict: a field the tool does not know is refused by name, never dropped unread.
    schema = z.strictObject(input);
    INPUT_SCHEMAS.set(tool, schema);
  }
  return schema;
}

function register(server: McpServer, tool: ToolDefinition, client: Client, maxTextChars: number) {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: inputSchemaOf(tool),
      annotations: { title: tool.title, ...tool.annotations },
    },
    async (given: Record<string, unknown>, extra): Promise<CallToolResult> => {
      const { project, ...rest } = given;
      // A tool over the organization may have a `project` field of its own (manage_projects).
      const args = tool.projectScoped ? rest : given;
      const call: CallOptions = {
        signal: extra.signal,
        // The call's header wins over the client's own project (XB_PROJECT).
        ...(tool.projectScoped && typeof project === 'string'
          ? { headers: { [PROJECT_HEADER]: project } }
          : {}),
      };
      try {
        return await tool.run(args as never, { client, signal: extra.signal, call, maxTextChars });
      } catch (error) {
        return errorResult(`${tool.name}: ${messageOf(error)}`);
      }
    },
  );
}
