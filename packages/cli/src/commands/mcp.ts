import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { usageError } from '../cli-error.js';
import type { CommandSet, CommandSpec } from './command.js';

/**
 * `xb mcp`: the service's MCP server over stdio, for an MCP client that starts it as a command.
 * Every tool call is an API call with the token `xb` is given (XB_BASE_URL and XB_TOKEN, flags
 * or a profile, as for every command). It serves until stdin ends or Ctrl-C; stdout carries
 * only the protocol.
 */
export const mcpCommand: CommandSpec = {
  group: 'mcp',
  // The group is the command: `xb mcp`.
  name: '',
  summary: 'Serve the MCP tools over stdio, for an agent that starts xb as its MCP server.',
  args: [],
  flags: [
    {
      name: 'max-text-chars',
      kind: 'number',
      placeholder: '<n>',
      description: 'characters of text one tool answer carries before it is cut, default 25000',
    },
  ],
  example: 'xb mcp   (in an MCP client: command "xb", args ["mcp"], env XB_BASE_URL and XB_TOKEN)',
  async run(context) {
    const client = await context.client();
    const [{ createMcpServer }, { StdioServerTransport }] = await Promise.all([
      import('@x/mcp'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
    ]);
    const maxTextChars = context.flags['max-text-chars'] as number | undefined;
    if (maxTextChars !== undefined && !(Number.isInteger(maxTextChars) && maxTextChars >= 1000)) {
      throw usageError(
        `--max-text-chars must be a whole number of at least 1000, got ${maxTextChars}.`,
      );
    }
    const server = createMcpServer({ client, ...(maxTextChars ? { maxTextChars } : {}) });
    const stdin =
      context.io.stdin instanceof Readable ? context.io.stdin : Readable.from(context.io.stdin);
    const ended = Promise.race([
      once(stdin, 'end'),
      once(stdin, 'close'),
      once(context.signal, 'abort'),
    ]).catch(() => undefined); // A stdin that fails has ended too: the server closes all the same.
    await server.connect(new StdioServerTransport(stdin, context.io.stdout as Writable));
    await ended;
    await server.close();
  },
};

/** `xb mcp`: the group and its commands. */
export const mcpSet: CommandSet = {
  groups: [
    {
      name: 'mcp',
      summary:
        'Serve the MCP tools over stdio, for agents (XB_BASE_URL and XB_TOKEN, or a profile)',
    },
  ],
  commands: [mcpCommand],
};
