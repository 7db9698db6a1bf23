import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { useFakeService } from '@x/testing/vitest';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchFolder, xb } from '../test-support/run-xb.js';

/** The built bin, as an MCP client starts it. */
const BIN = new URL('../../dist/bin/xb.js', import.meta.url).pathname;

const fake = useFakeService({ listen: true });
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** `xb mcp` started by the SDK's stdio client, as an agent's MCP client starts it. */
async function startXbMcp(env: Record<string, string>, args: string[] = []) {
  const home = scratchFolder();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { HOME: home, XDG_CONFIG_HOME: `${home}/config`, ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'xb-mcp-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, call };
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`not text: ${JSON.stringify(result)}`);
  return first.text;
}

describe('xb mcp', () => {
  it('serves the tools over stdio with XB_BASE_URL and XB_TOKEN: create, context, act, look, delete', async () => {
    const { client, call } = await startXbMcp({
      XB_BASE_URL: fake.url,
      XB_TOKEN: fake.tokens.token,
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['manage_browsers', 'get_connection_context', 'computer_action']),
    );

    const created = await call('manage_browsers', { action: 'create' });
    const { session_id: id } = JSON.parse(textOf(created)) as { session_id: string };
    expect(fake.state.browsers.has(id)).toBe(true);

    expect(JSON.parse(textOf(await call('get_connection_context')))).toMatchObject({
      service: fake.url,
      project: { id: 'default' },
    });

    const acted = await call('computer_action', {
      session_id: id,
      actions: [
        { type: 'type_text', type_text: { text: 'from an agent' } },
        { type: 'screenshot' },
      ],
    });
    expect(acted.isError).toBeFalsy();
    expect(acted.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(fake.typedText(id)).toBe('from an agent');

    const bad = await call('computer_action', { session_id: id, actions: [{ type: 'fly' }] });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/type/);

    await call('manage_browsers', { action: 'delete', session_id: id });
    expect(fake.journal.last('browsers.delete')?.status).toBe(204);
  });

  it('takes the base URL and token from a saved profile, and the read-only token reads only', async () => {
    const home = scratchFolder();
    const env = { HOME: home, XDG_CONFIG_HOME: `${home}/config` };
    for (const [key, value] of [
      ['base_url', fake.url],
      ['token', fake.tokens.readOnlyToken],
    ] as const) {
      expect((await xb(['config', 'set', key, value, '--profile', 'agent'], { env })).code).toBe(0);
    }
    const { call } = await startXbMcp({ ...env, XB_PROFILE: 'agent' });
    expect((await call('manage_browsers', { action: 'list' })).isError).toBeFalsy();
    const refused = await call('manage_browsers', { action: 'create' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/403 forbidden/);
  });

  it('without a token says how to give one on stderr and exits 2, stdout left empty', async () => {
    const result = await xb(['mcp'], { env: { XB_BASE_URL: fake.url } });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/No token: pass --token, set XB_TOKEN/);
  });
});
