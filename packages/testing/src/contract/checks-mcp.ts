import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_NAMES } from '@x/mcp';
import { defineChecks } from './check.js';
import { type ContractContext, expect } from './context.js';

/** The service's `/mcp`. */
const mcpUrl = (context: ContractContext) =>
  new URL(`${context.target.baseUrl.replace(/\/+$/, '')}/mcp`);

/** The official SDK's MCP client, over Streamable HTTP to the target's `/mcp`, as `token`. */
async function connectMcp(context: ContractContext, token = context.target.token) {
  const mcp = new Client({ name: 'contract-suite', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(mcpUrl(context), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      ...(context.target.fetch ? { fetch: context.target.fetch } : {}),
    }),
  );
  context.defer(() => mcp.close());
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  return { mcp, call };
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : JSON.stringify(first);
}

/** The MCP server at `/mcp`: the tools, each an API call of the caller's. */
export const mcpChecks = defineChecks('mcp', {
  'lists every tool and drives a browser through them: create, get, delete': async (context) => {
    const { mcp, call } = await connectMcp(context);
    const { tools } = await mcp.listTools();
    const names = tools.map((tool) => tool.name);
    expect(JSON.stringify(names) === JSON.stringify(TOOL_NAMES), `/mcp lists ${names.join(', ')}`);
    const created = await call('manage_browsers', { action: 'create' });
    expect(!created.isError, `manage_browsers create: ${textOf(created)}`);
    const { session_id: id } = JSON.parse(textOf(created)) as { session_id: string };
    context.defer(() => context.call('DELETE', `/browsers/${id}`));
    // The browser the tool made is the API's.
    const fetched = await context.call('GET', `/browsers/${id}`);
    expect(fetched.status === 200, `GET /browsers/${id} after the tool made it: ${fetched.status}`);
    const deleted = await call('manage_browsers', { action: 'delete', session_id: id });
    expect(!deleted.isError, `manage_browsers delete: ${textOf(deleted)}`);
    const gone = JSON.parse(
      textOf(await call('manage_browsers', { action: 'get', session_id: id })),
    );
    expect(gone.deleted_at, `the browser deleted through /mcp reads ${JSON.stringify(gone)}`);
    const missing = await call('manage_browsers', { action: 'get', session_id: 'br_nothere' });
    expect(
      missing.isError === true && /404 not_found/.test(textOf(missing)),
      `an unknown browser is answered ${JSON.stringify(missing)}`,
    );
  },

  'answers 401 without a known token, 405 to GET, and refuses a read-only token each write': async (
    context,
  ) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    for (const token of [null, 'not-a-token-of-this-service']) {
      const answer = await context.call('POST', '/mcp', { token, body, headers });
      expect(answer.status === 401, `/mcp with token ${token}: ${answer.status} ${answer.text}`);
      expect(
        (answer.json as { code?: string } | undefined)?.code === 'unauthorized',
        `/mcp's 401 body: ${answer.text}`,
      );
    }
    const get = await context.call('GET', '/mcp', { headers });
    expect(get.status === 405, `GET /mcp: ${get.status}`);
    const { call } = await connectMcp(context, context.target.readOnlyToken);
    const listed = await call('manage_browsers', { action: 'list' });
    expect(!listed.isError, `a read-only token's list: ${textOf(listed)}`);
    const refused = await call('manage_browsers', { action: 'create' });
    if (context.target.readOnlyToken !== context.target.token) {
      expect(
        refused.isError === true && /403/.test(textOf(refused)),
        `a read-only token's create: ${textOf(refused)}`,
      );
    } else if (!refused.isError) {
      // A target without a read-only token: what it made goes.
      const { session_id: id } = JSON.parse(textOf(refused)) as { session_id: string };
      await context.call('DELETE', `/browsers/${id}`);
    }
  },
});
