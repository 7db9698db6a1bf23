import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from '@x/client';
import { createMcpServer, TOOL_NAMES } from '@x/mcp';
import { describe, expect, it } from 'vitest';
import { useFakeService } from '../vitest/index.js';

const fake = useFakeService();

/** An MCP client connected in memory to a server whose calls reach the fake with `token`. */
async function connect(token = fake.tokens.token, maxTextChars?: number) {
  const client = createClient({ baseUrl: fake.url, token, fetch: fake.fetch, maxRetries: 0 });
  const server = createMcpServer({ client, ...(maxTextChars ? { maxTextChars } : {}) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const mcp = new McpClient({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), mcp.connect(clientSide)]);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  return { mcp, call };
}

/** The text of a result's first content. */
function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`not text: ${JSON.stringify(result)}`);
  return first.text;
}

describe('the MCP server', () => {
  it('lists every tool with a description for a model and annotations true to its actions', async () => {
    const { mcp } = await connect();
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
    expect(byName.get('get_connection_context')?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
    // Each of these can delete or change what it reaches.
    for (const name of ['manage_browsers', 'manage_profiles', 'exec_command', 'computer_action']) {
      expect(byName.get(name)?.annotations, name).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
      });
    }
    expect(byName.get('manage_replays')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
    expect(byName.get('manage_browsers')?.inputSchema.properties?.action).toMatchObject({
      enum: ['create', 'update', 'list', 'get', 'delete'],
    });
  });

  it('creates a browser, says the context, clicks, types and shows the screen, then deletes it', async () => {
    const { call } = await connect();
    const created = await call('manage_browsers', { action: 'create', name: 'agent' });
    expect(created.isError).toBeFalsy();
    const { session_id: id } = JSON.parse(textOf(created)) as { session_id: string };
    expect(id).toMatch(/^br_/);

    const context = JSON.parse(textOf(await call('get_connection_context'))) as Record<
      string,
      unknown
    >;
    expect(context).toMatchObject({
      service: fake.url,
      project: { id: 'default' },
      project_chosen_by: 'the token (the only project it sees)',
      token_ends_with: fake.tokens.token.slice(-4),
    });

    const acted = await call('computer_action', {
      session_id: id,
      actions: [
        { type: 'click_mouse', click_mouse: { x: 10, y: 20 } },
        { type: 'type_text', type_text: { text: 'hello' } },
        { type: 'write_clipboard', write_clipboard: { text: 'copied' } },
        { type: 'press_key', press_key: { keys: ['Return'] } },
        { type: 'get_mouse_position' },
        { type: 'read_clipboard' },
        { type: 'screenshot' },
      ],
    });
    expect(acted.isError, JSON.stringify(acted.content[0])).toBeFalsy();
    expect(acted.content[0]).toEqual({ type: 'text', text: 'Ran 7 actions.' });
    expect(acted.content[1]).toEqual({ type: 'text', text: 'Mouse at x=10, y=20.' });
    expect(acted.content[2]).toEqual({ type: 'text', text: 'Clipboard: "copied"' });
    const image = acted.content[3];
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const png = Buffer.from((image as { data: string }).data, 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(fake.typedText(id)).toBe('hello');
    // Two batches around the clipboard write: each in order, as one call.
    expect(fake.journal.calls('browsers.computer.batch')).toHaveLength(2);

    const listed = JSON.parse(textOf(await call('manage_browsers', { action: 'list' })));
    expect(listed).toMatchObject({ items: [{ session_id: id }], has_more: false });
    expect(textOf(await call('manage_browsers', { action: 'delete', session_id: id }))).toContain(
      id,
    );
    const gone = JSON.parse(
      textOf(await call('manage_browsers', { action: 'get', session_id: id })),
    );
    expect(gone.deleted_at).toEqual(expect.any(String));
    const missing = await call('manage_browsers', { action: 'get', session_id: 'br_nothere' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^manage_browsers: 404 not_found: /);
  });

  it('answers bad input with isError and a sentence saying what to fix', async () => {
    const { call } = await connect();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['manage_browsers', { action: 'explode' }, /action/],
      ['manage_browsers', { action: 'get' }, /"session_id" is required for action "get"/],
      [
        'manage_browsers',
        { action: 'list', session_id: 'x' },
        /Action "list" does not take "session_id"/,
      ],
      ['manage_browsers', { action: 'list', colour: 'red' }, /colour/],
      ['computer_action', { session_id: 'br_x', actions: [] }, /actions/],
      [
        'computer_action',
        {
          session_id: 'br_x',
          actions: [{ type: 'screenshot' }, { type: 'sleep', sleep: { duration_ms: 1 } }],
        },
        /actions\[1\] \(sleep\) comes after actions\[0\] \(screenshot\).*must come last/,
      ],
      [
        'computer_action',
        { session_id: 'br_x', actions: [{ type: 'click_mouse', scroll: { x: 1, y: 1 } }] },
        /actions\[0\] is a click_mouse but carries scroll/,
      ],
      [
        'manage_profiles',
        { action: 'rename', profile: 'p' },
        /"name" is required for action "rename"/,
      ],
      ['manage_replays', { action: 'stop', session_id: 'br_x' }, /"replay_id" is required/],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).toMatch(message);
    }
  });

  it('says which action failed, after how many ran, in the service’s words', async () => {
    const { call } = await connect();
    const { session_id: id } = JSON.parse(
      textOf(await call('manage_browsers', { action: 'create' })),
    );
    const result = await call('computer_action', {
      session_id: id,
      actions: [
        { type: 'write_clipboard', write_clipboard: { text: 'a' } },
        { type: 'move_mouse', move_mouse: { x: 1, y: 1 } },
        { type: 'click_mouse', click_mouse: { x: -5, y: 1 } },
      ],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Stopped at the batch of actions\[1\]–actions\[2\] after 1 of 3 actions ran: .*click_mouse\.x: must be >= 0/,
    );
  });

  it('acts with the caller’s token: a read-only one reads and is refused every write', async () => {
    const { call } = await connect(fake.tokens.readOnlyToken);
    expect((await call('manage_browsers', { action: 'list' })).isError).toBeFalsy();
    const refused = await call('manage_browsers', { action: 'create' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/403 forbidden: This token may only read/);
    const { call: asNobody } = await connect('not-a-token');
    expect(textOf(await asNobody('manage_browsers', { action: 'list' }))).toMatch(/401/);
  });

  it('cuts a long answer and says so', async () => {
    const { call } = await connect(fake.tokens.token, 1500);
    const { session_id: id } = JSON.parse(
      textOf(await call('manage_browsers', { action: 'create' })),
    );
    fake.scriptPlaywright('return page', { outcome: { success: true, result: 'x'.repeat(5000) } });
    const text = textOf(
      await call('execute_playwright_code', { session_id: id, code: 'return page' }),
    );
    expect(text.length).toBeLessThan(1700);
    expect(text).toMatch(/\n\[cut: the first 1500 of \d+ characters are shown; return less/);
  });

  it('runs Playwright code, commands and curl through the browser, and profiles and replays', async () => {
    const { call } = await connect();
    const { session_id: id } = JSON.parse(
      textOf(await call('manage_browsers', { action: 'create' })),
    );
    fake.scriptPlaywright('return title()', {
      outcome: { success: true, result: { title: 'Example' }, stdout: 'loading\n' },
    });
    expect(
      textOf(await call('execute_playwright_code', { session_id: id, code: 'return title()' })),
    ).toBe('Result:\n{\n  "title": "Example"\n}\nstdout:\nloading\n');
    const failed = await call('execute_playwright_code', {
      session_id: id,
      code: 'throw new Error("no button")',
    });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/^The code failed: .*no button/);

    expect(
      textOf(await call('exec_command', { session_id: id, command: 'echo', args: ['hi'] })),
    ).toMatch(/^Exit code 0 after \d+ ms\.\nstdout:\nhi\n/);

    fake.scriptSite('https://shop.example', (request) => ({
      status: 201,
      headers: [['x-kind', 'test']],
      body: `made by ${request.method}`,
    }));
    expect(
      textOf(
        await call('browser_curl', {
          session_id: id,
          url: 'https://shop.example/a',
          method: 'POST',
        }),
      ),
    ).toMatch(/^HTTP 201 in \d+ ms\n(.|\n)*x-kind: test(.|\n)*\n\nmade by POST$/);

    const profile = JSON.parse(
      textOf(await call('manage_profiles', { action: 'create', name: 'shop' })),
    );
    expect(profile).toMatchObject({ name: 'shop' });
    await call('manage_profiles', { action: 'rename', profile: 'shop', name: 'store' });
    expect(JSON.parse(textOf(await call('manage_profiles', { action: 'list' })))).toMatchObject({
      items: [{ id: profile.id, name: 'store' }],
    });
    await call('manage_profiles', { action: 'delete', profile: 'store' });
    expect((await call('manage_profiles', { action: 'get', profile: 'store' })).isError).toBe(true);

    const replay = JSON.parse(
      textOf(await call('manage_replays', { action: 'start', session_id: id })),
    );
    const stopped = JSON.parse(
      textOf(
        await call('manage_replays', {
          action: 'stop',
          session_id: id,
          replay_id: replay.replay_id,
        }),
      ),
    );
    expect(stopped).toMatchObject({ replay_id: replay.replay_id, finished_at: expect.any(String) });
  });
});
