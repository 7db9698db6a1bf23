import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_NAMES } from '@x/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const READ_ONLY = 'mcp-read-only-token';
const test = useTestServer({ XB_READ_ONLY_TOKENS: READ_ONLY });

/** A page on loopback that a session's Playwright code reads. */
let page: Server;
let pageUrl = '';
beforeAll(async () => {
  page = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end('<title>Loopback</title><h1 id="greeting">Hello from loopback</h1>');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => page.close(() => resolve())));

/** An MCP client of the official SDK, over Streamable HTTP to the server's `/mcp`. */
async function connect(token = TEST_TOKEN) {
  const mcp = new McpClient({ name: 'test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${test.server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  return { mcp, call };
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`not text: ${JSON.stringify(result)}`);
  return first.text;
}

describe('the MCP endpoint of the server', () => {
  it('lists the tools, then creates a browser, reads a loopback page, types, looks and deletes it', async () => {
    const { mcp, call } = await connect();
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
      const created = await call('manage_browsers', { action: 'create' });
      expect(created.isError, textOf(created)).toBeFalsy();
      const { session_id: id } = JSON.parse(textOf(created)) as { session_id: string };
      const read = await call('execute_playwright_code', {
        session_id: id,
        code: `await page.goto(${JSON.stringify(pageUrl)}); return await page.textContent('#greeting');`,
      });
      expect(read.isError, textOf(read)).toBeFalsy();
      expect(textOf(read)).toContain('Hello from loopback');
      const acted = await call('computer_action', {
        session_id: id,
        actions: [{ type: 'type_text', type_text: { text: 'hi' } }, { type: 'screenshot' }],
      });
      expect(acted.isError, textOf(acted)).toBeFalsy();
      const image = acted.content.find((content) => content.type === 'image');
      expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
      const png = Buffer.from((image as { data: string }).data, 'base64');
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      const context = JSON.parse(textOf(await call('get_connection_context'))) as {
        token_ends_with: string;
      };
      expect(context.token_ends_with).toBe(TEST_TOKEN.slice(-4));
      const deleted = await call('manage_browsers', { action: 'delete', session_id: id });
      expect(deleted.isError, textOf(deleted)).toBeFalsy();
      const gone = JSON.parse(
        textOf(await call('manage_browsers', { action: 'get', session_id: id })),
      );
      expect(gone.deleted_at).toEqual(expect.any(String));
    } finally {
      await mcp.close();
    }
  });

  it('answers a page as an accessibility snapshot, whole or a part, and says when a part is missing', async () => {
    const { call, mcp } = await connect();
    try {
      const created = await call('manage_browsers', { action: 'create' });
      const { session_id: id } = JSON.parse(textOf(created)) as { session_id: string };
      await call('execute_playwright_code', {
        session_id: id,
        code: `await page.goto(${JSON.stringify(pageUrl)});`,
      });
      const whole = await call('browser_snapshot', { session_id: id });
      expect(whole.isError, textOf(whole)).toBeFalsy();
      expect(textOf(whole)).toContain(`Page: Loopback (${pageUrl})`);
      expect(textOf(whole)).toMatch(/- heading "Hello from loopback" \[level=1\]/);
      const part = await call('browser_snapshot', { session_id: id, selector: '#greeting' });
      expect(textOf(part)).toMatch(/heading "Hello from loopback"/);
      const missing = await call('browser_snapshot', { session_id: id, selector: '#nothing' });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toMatch(/^The snapshot failed: /);
      await call('manage_browsers', { action: 'delete', session_id: id });
    } finally {
      await mcp.close();
    }
  });

  it('answers 401 before anything without a known token, and takes POST only', async () => {
    const url = `${test.server.url}/mcp`;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    for (const authorization of [undefined, 'Bearer not-a-token']) {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { ...headers, ...(authorization ? { authorization } : {}) },
        body,
      });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect(await answer.json()).toMatchObject({ code: 'unauthorized' });
    }
    const get = await fetch(url, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const huge = await fetch(url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${TEST_TOKEN}` },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
  });

  it('lets a read-only token read and refuses it every write, in the service’s words', async () => {
    const { mcp, call } = await connect(READ_ONLY);
    try {
      const listed = await call('manage_browsers', { action: 'list' });
      expect(listed.isError, textOf(listed)).toBeFalsy();
      const refused = await call('manage_browsers', { action: 'create' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^manage_browsers: 403 /);
    } finally {
      await mcp.close();
    }
  });
});
