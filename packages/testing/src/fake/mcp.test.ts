import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from '@x/client';
import { createMcpServer, TOOL_NAMES } from '@x/mcp';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildExtensionArchive } from '../fixtures/extension-archive.js';
import { startOnePasswordConnect } from '../fixtures/onepassword-connect.js';
import { useFakeService } from '../vitest/index.js';

const fake = useFakeService();

/**
 * An MCP client connected in memory to a server whose calls reach the fake with `token` (and
 * `project`, when given, as the client's project setting).
 */
async function connect(token = fake.tokens.token, maxTextChars?: number, project?: string) {
  const client = createClient({
    baseUrl: fake.url,
    token,
    fetch: fake.fetch,
    maxRetries: 0,
    ...(project !== undefined && { project }),
  });
  const server = createMcpServer({ client, ...(maxTextChars ? { maxTextChars } : {}) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const mcp = new McpClient({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), mcp.connect(clientSide)]);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  return { mcp, call, client };
}

/** A JSON answer, read loosely: the tests look into it by name. */
// biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, checked by each test
type Answer = Record<string, any>;

/** The JSON answer of a call that must succeed. */
async function answerOf(pending: Promise<CallToolResult>): Promise<Answer> {
  const result = await pending;
  expect(result.isError, textOf(result)).toBeFalsy();
  return JSON.parse(textOf(result)) as Answer;
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
    for (const name of [
      'manage_browsers',
      'manage_profiles',
      'manage_browser_pools',
      'manage_proxies',
      'manage_extensions',
      'manage_apps',
      'manage_auth_connections',
      'manage_credentials',
      'manage_credential_providers',
      'manage_projects',
      'manage_api_keys',
      'exec_command',
      'computer_action',
    ]) {
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
    expect(byName.get('manage_apps')?.inputSchema.properties?.action).toMatchObject({
      enum: [
        'list_apps',
        'invoke',
        'get_deployment',
        'list_deployments',
        'delete_deployment',
        'get_invocation',
        'list_invocation_browsers',
      ],
    });
    // A tool that acts in a project takes `project`; one over the organization acts in none
    // (manage_projects and manage_api_keys name a project of their own with it).
    const actsInProject = (tool: (typeof tools)[number]) =>
      /^the project to act in/.test(
        String((tool.inputSchema.properties?.project as { description?: string })?.description),
      );
    expect(tools.filter(actsInProject).map((tool) => tool.name)).toEqual([
      'manage_browsers',
      'manage_profiles',
      'manage_browser_pools',
      'manage_proxies',
      'manage_replays',
      'manage_extensions',
      'manage_apps',
      'manage_auth_connections',
      'manage_credentials',
      'computer_action',
      'browser_curl',
      'execute_playwright_code',
      'exec_command',
      'browser_snapshot',
    ]);
    expect(byName.get('browser_snapshot')?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
  });

  it('creates a browser, says the context, clicks, types and shows the screen, then deletes it', async () => {
    const { call } = await connect();
    const created = await call('manage_browsers', { action: 'create', name: 'agent' });
    expect(created.isError).toBeFalsy();
    const { session_id: id, browser_live_view_url: live } = JSON.parse(textOf(created)) as {
      session_id: string;
      browser_live_view_url: string;
    };
    expect(id).toMatch(/^br_/);
    // Its live view, as a resource a client can open for a person.
    expect(created.content[1]).toMatchObject({
      type: 'resource_link',
      uri: live,
      name: `Live view of ${id}`,
      mimeType: 'text/html',
    });

    const context = JSON.parse(textOf(await call('get_connection_context'))) as Record<
      string,
      unknown
    >;
    expect(context).toMatchObject({
      service: fake.url,
      project: { id: 'default' },
      project_chosen_by: 'the service (its default project)',
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
      [
        'manage_browser_pools',
        { action: 'create', name: 'warm' },
        /"size" is required for action "create"/,
      ],
      ['manage_browser_pools', { action: 'release', pool: 'warm' }, /"session_id" is required/],
      [
        'manage_proxies',
        { action: 'create', port: 8080 },
        /"host" is required for action "create"/,
      ],
      ['manage_proxies', { action: 'rename', proxy_id: 'px_x' }, /"name" is required/],
      ['manage_extensions', { action: 'delete' }, /"extension" is required for action "delete"/],
      ['manage_extensions', { action: 'list', extension: 'x' }, /does not take "extension"/],
      [
        'manage_apps',
        { action: 'invoke', app_name: 'shop' },
        /"action_name" is required for action "invoke"/,
      ],
      ['manage_apps', { action: 'get_invocation' }, /"invocation_id" is required/],
      [
        'manage_auth_connections',
        { action: 'create', domain: 'example.com' },
        /"profile_name" is required for action "create"/,
      ],
      [
        'manage_auth_connections',
        { action: 'submit', connection_id: 'auth_x' },
        /"field_values" is required for action "submit"/,
      ],
      [
        'manage_credentials',
        { action: 'create', name: 'shop', domain: 'shop.example.com' },
        /"values" is required for action "create"/,
      ],
      ['manage_credentials', { action: 'totp_code' }, /"credential" is required/],
      [
        'manage_credential_providers',
        { action: 'create', name: 'vault' },
        /"token" is required for action "create"/,
      ],
      ['manage_credential_providers', { action: 'test' }, /"provider" is required/],
      ['manage_projects', { action: 'update_limits' }, /"project" is required/],
      ['manage_projects', { action: 'create' }, /"name" is required for action "create"/],
      [
        'manage_api_keys',
        { action: 'update', key_id: 'key_x' },
        /"name" is required for action "update"/,
      ],
      ['manage_api_keys', { action: 'list', project: 'default' }, /does not take "project"/],
      ['manage_credential_providers', { action: 'list', project: 'default' }, /project/],
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

  it('get_connection_context says who calls, what it reaches and where calls act, as the service says', async () => {
    const { call, client } = await connect();
    expect(await answerOf(call('get_connection_context'))).toEqual({
      service: fake.url,
      organization: { id: 'default' },
      principal: {
        id: expect.stringMatching(/^op_/),
        type: 'api_key',
        name: 'operator token',
        credential: "the operator's token",
      },
      token_ends_with: fake.tokens.token.slice(-4),
      read_only: false,
      credential_scope: { project_id: null },
      project: { id: 'default', name: 'default', status: 'active' },
      project_chosen_by: 'the service (its default project)',
      visible_projects: [{ id: 'default', name: 'default' }],
      more_projects: false,
    });
    // Read from the service, not inferred from the projects the token sees.
    expect(fake.journal.calls('auth.context.get')).toHaveLength(1);
    const { call: readOnly } = await connect(fake.tokens.readOnlyToken);
    expect(await answerOf(readOnly('get_connection_context'))).toMatchObject({
      principal: { name: 'operator token (read-only)' },
      read_only: true,
      credential_scope: { project_id: null },
    });

    const project = await client.projects.create({ name: 'team-ctx' });
    const { call: configured } = await connect(fake.tokens.token, undefined, 'team-ctx');
    expect(await answerOf(configured('get_connection_context'))).toMatchObject({
      credential_scope: { project_id: null },
      project: { id: project.id, name: 'team-ctx' },
      project_chosen_by: 'configuration (the project setting)',
      visible_projects: [{ id: 'default' }, { id: project.id }],
    });

    const key = await client.apiKeys.create({
      name: 'agent-ctx',
      project_id: project.id,
      read_only: true,
    });
    const { call: withKey } = await connect(key.key);
    expect(await answerOf(withKey('get_connection_context'))).toEqual({
      service: fake.url,
      organization: { id: 'default' },
      principal: { id: key.id, type: 'api_key', name: 'agent-ctx', credential: 'an API key' },
      token_ends_with: key.key.slice(-4),
      read_only: true,
      credential_scope: { project_id: project.id },
      project: { id: project.id, name: 'team-ctx', status: 'active' },
      project_chosen_by: "the token (a project's API key acts in its project)",
      visible_projects: [{ id: project.id, name: 'team-ctx' }],
      more_projects: false,
    });
    // A project key naming another project is refused, as any call of it would be.
    const { call: elsewhere } = await connect(key.key, undefined, 'default');
    const refused = await elsewhere('get_connection_context');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/403 forbidden/);
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
    const stopping = await call('manage_replays', {
      action: 'stop',
      session_id: id,
      replay_id: replay.replay_id,
    });
    const stopped = JSON.parse(textOf(stopping));
    expect(stopped).toMatchObject({ replay_id: replay.replay_id, finished_at: expect.any(String) });
    // Its player, as a resource a client can open.
    expect(stopping.content[1]).toMatchObject({
      type: 'resource_link',
      uri: stopped.replay_view_url,
      name: `Replay ${replay.replay_id}`,
    });
    const listed = await call('manage_replays', { action: 'list', session_id: id });
    expect(listed.content.filter((part) => part.type === 'resource_link')).toHaveLength(1);
  });
});

/** An app whose action `run` answers its payload back, as `@x/client/apps` defines one. */
const ECHO_APP = `
const registry = (globalThis[Symbol.for('@x/client.apps')] ??= new Map());
registry.set('echo', { name: 'echo', actions: new Map([['run', async (_context, payload) => ({ got: payload })]]) });
`;

describe('the manage_* tools', () => {
  it('sets a profile up: a browser saving into it, its live view for the person, made once', async () => {
    const { call } = await connect();
    const first = await call('manage_profiles', {
      action: 'setup',
      profile: 'bank',
      start_url: 'https://bank.example/login',
    });
    expect(first.isError, textOf(first)).toBeFalsy();
    const answer = JSON.parse(textOf(first));
    expect(answer).toMatchObject({
      profile: { name: 'bank' },
      made: true,
      session_id: expect.stringMatching(/^br_/),
      next: expect.stringContaining('manage_browsers delete'),
    });
    expect(first.content[1]).toMatchObject({
      type: 'resource_link',
      uri: answer.browser_live_view_url,
    });
    const browser = JSON.parse(
      textOf(await call('manage_browsers', { action: 'get', session_id: answer.session_id })),
    );
    expect(browser.profile).toMatchObject({ name: 'bank', save_changes: true });
    await call('manage_browsers', { action: 'delete', session_id: answer.session_id });
    const again = JSON.parse(
      textOf(await call('manage_profiles', { action: 'setup', profile: 'bank' })),
    );
    expect(again).toMatchObject({ made: false, profile: { id: answer.profile.id } });
    await call('manage_browsers', { action: 'delete', session_id: again.session_id });
    const refused = await call('manage_profiles', { action: 'list', start_url: 'https://x' });
    expect(textOf(refused)).toMatch(/does not take "start_url"/);
  });

  it('manage_browser_pools creates, lists, changes, hands out, takes back, flushes and deletes a pool', async () => {
    const { call } = await connect();
    const pool = await answerOf(
      call('manage_browser_pools', { action: 'create', name: 'warm', size: 1, headless: true }),
    );
    expect(pool).toMatchObject({ name: 'warm', browser_pool_config: { size: 1 } });
    expect(await answerOf(call('manage_browser_pools', { action: 'list' }))).toMatchObject({
      items: [{ id: pool.id, name: 'warm' }],
      has_more: false,
      next_offset: null,
    });
    expect(
      await answerOf(call('manage_browser_pools', { action: 'update', pool: 'warm', size: 2 })),
    ).toMatchObject({ browser_pool_config: { size: 2 } });
    const browser = await answerOf(
      call('manage_browser_pools', { action: 'acquire', pool: 'warm' }),
    );
    expect(browser.session_id).toMatch(/^br_/);
    expect(
      await answerOf(call('manage_browser_pools', { action: 'get', pool: pool.id })),
    ).toMatchObject({ acquired_count: 1 });
    expect(
      await answerOf(
        call('manage_browser_pools', {
          action: 'release',
          pool: 'warm',
          session_id: browser.session_id,
        }),
      ),
    ).toEqual({ released: browser.session_id, pool: 'warm' });
    expect(await answerOf(call('manage_browser_pools', { action: 'flush', pool: 'warm' }))).toEqual(
      { flushed: 'warm' },
    );
    await answerOf(call('manage_browser_pools', { action: 'delete', pool: 'warm' }));
    expect((await call('manage_browser_pools', { action: 'get', pool: 'warm' })).isError).toBe(
      true,
    );
  });

  it('manage_proxies creates, checks, renames and deletes a proxy, never showing its password', async () => {
    const { call } = await connect();
    const created = await call('manage_proxies', {
      action: 'create',
      name: 'office',
      host: 'proxy.example.com',
      port: 3128,
      username: 'agent',
      password: 'proxy-pass-1',
    });
    expect(textOf(created)).not.toContain('proxy-pass-1');
    const proxy = JSON.parse(textOf(created)) as Answer;
    expect(proxy).toMatchObject({
      name: 'office',
      type: 'custom',
      config: { host: 'proxy.example.com', port: 3128, username: 'agent', has_password: true },
    });
    fake.setProxyCheck('proxy.example.com:3128', {
      status: 'available',
      ip_address: '203.0.113.7',
    });
    expect(
      await answerOf(call('manage_proxies', { action: 'check', proxy_id: proxy.id })),
    ).toMatchObject({ status: 'available', ip_address: '203.0.113.7' });
    await answerOf(
      call('manage_proxies', { action: 'rename', proxy_id: proxy.id, name: 'branch' }),
    );
    expect(
      await answerOf(call('manage_proxies', { action: 'get', proxy_id: proxy.id })),
    ).toMatchObject({
      name: 'branch',
    });
    expect(await answerOf(call('manage_proxies', { action: 'list' }))).toMatchObject({
      items: [{ id: proxy.id }],
      has_more: false,
    });
    await answerOf(call('manage_proxies', { action: 'delete', proxy_id: proxy.id }));
    expect((await answerOf(call('manage_proxies', { action: 'list' }))).items).toEqual([]);
  });

  it('manage_extensions lists the uploaded extensions and deletes one by name', async () => {
    const { call, client } = await connect();
    const archive = buildExtensionArchive() as Uint8Array<ArrayBuffer>;
    await client.extensions.upload({ file: new Blob([archive]), name: 'blocker' });
    expect(
      await answerOf(call('manage_extensions', { action: 'list', query: 'block' })),
    ).toMatchObject({
      items: [{ name: 'blocker', size_bytes: archive.byteLength }],
      has_more: false,
    });
    expect(
      await answerOf(call('manage_extensions', { action: 'delete', extension: 'blocker' })),
    ).toEqual({ deleted: 'blocker' });
    expect((await answerOf(call('manage_extensions', { action: 'list' }))).items).toEqual([]);
  });

  it('manage_apps lists apps and deployments, invokes an action in the background and follows it', async () => {
    const { call, client } = await connect();
    const zip = zipSync({
      'app.ts': new TextEncoder().encode(ECHO_APP),
    }) as Uint8Array<ArrayBuffer>;
    const deployment = await client.deployments.create({
      file: new Blob([zip]),
      entrypoint_rel_path: 'app.ts',
      version: 'v1',
    });
    const events = await client.deployments.events({ id: deployment.id });
    for await (const event of events)
      if (
        event.event === 'deployment_state' &&
        event.deployment.status !== 'in_progress' &&
        event.deployment.status !== 'queued'
      )
        break;
    await events.close();

    expect(
      await answerOf(call('manage_apps', { action: 'list_apps', app_name: 'echo' })),
    ).toMatchObject({
      items: [{ app_name: 'echo', version: 'v1', actions: [{ name: 'run' }] }],
      has_more: false,
    });
    expect(await answerOf(call('manage_apps', { action: 'list_deployments' }))).toMatchObject({
      items: [{ id: deployment.id }],
    });
    expect(
      await answerOf(
        call('manage_apps', { action: 'get_deployment', deployment_id: deployment.id }),
      ),
    ).toMatchObject({ id: deployment.id, status: 'running', app_name: 'echo' });

    const invoked = await answerOf(
      call('manage_apps', {
        action: 'invoke',
        app_name: 'echo',
        action_name: 'run',
        version: 'v1',
        payload: '{"url":"https://example.com"}',
      }),
    );
    expect(invoked).toMatchObject({
      invocation_id: expect.any(String),
      status: expect.stringMatching(/^(queued|running|succeeded)$/),
      app_name: 'echo',
      action_name: 'run',
      version: 'v1',
    });
    let invocation: Answer = {};
    for (let attempt = 0; attempt < 200; attempt++) {
      invocation = await answerOf(
        call('manage_apps', { action: 'get_invocation', invocation_id: invoked.invocation_id }),
      );
      if (invocation.status === 'succeeded' || invocation.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(invocation).toMatchObject({ status: 'succeeded' });
    expect(JSON.parse(invocation.output)).toEqual({ got: { url: 'https://example.com' } });
    expect(
      await answerOf(
        call('manage_apps', {
          action: 'list_invocation_browsers',
          invocation_id: invoked.invocation_id,
        }),
      ),
    ).toEqual({ items: [], has_more: false });

    await answerOf(
      call('manage_apps', { action: 'delete_deployment', deployment_id: deployment.id }),
    );
    const refused = await call('manage_apps', {
      action: 'invoke',
      app_name: 'echo',
      action_name: 'run',
      version: 'v1',
    });
    expect(refused.isError).toBe(true);
  });

  it('manage_auth_connections signs a profile in: login, wait, submit, wait; values never shown back', async () => {
    const { call } = await connect();
    const connection = await answerOf(
      call('manage_auth_connections', {
        action: 'create',
        domain: 'login.example.com',
        profile_name: 'shop',
      }),
    );
    expect(connection).toMatchObject({ domain: 'login.example.com', status: 'NEEDS_AUTH' });
    await answerOf(
      call('manage_auth_connections', {
        action: 'create',
        domain: 'mail.example.com',
        profile_name: 'mail',
      }),
    );
    expect(
      await answerOf(
        call('manage_auth_connections', { action: 'list', domain: 'login.example.com' }),
      ),
    ).toMatchObject({ items: [{ id: connection.id }], has_more: false });
    const id = connection.id as string;

    const login = await answerOf(
      call('manage_auth_connections', { action: 'login', connection_id: id }),
    );
    expect(login).toMatchObject({ id, flow_type: 'LOGIN', hosted_url: expect.any(String) });
    const asked = await answerOf(
      call('manage_auth_connections', { action: 'wait', connection_id: id, timeout_seconds: 10 }),
    );
    expect(asked).toMatchObject({
      outcome: 'awaiting_input',
      connection: { flow_step: 'AWAITING_INPUT' },
    });
    const fields = asked.connection.fields as { id: string; type: string }[];
    const values = Object.fromEntries(
      fields.map((field) => [field.id, field.type === 'password' ? 'pa55-word-9' : 'agent']),
    );
    const submitted = await call('manage_auth_connections', {
      action: 'submit',
      connection_id: id,
      field_values: values,
    });
    expect(JSON.parse(textOf(submitted))).toEqual({ accepted: true });
    const done = await call('manage_auth_connections', {
      action: 'wait',
      connection_id: id,
      timeout_seconds: 10,
    });
    expect(textOf(done)).not.toContain('pa55-word-9');
    expect(JSON.parse(textOf(done))).toMatchObject({
      outcome: 'signed_in',
      connection: { status: 'AUTHENTICATED', flow_status: 'SUCCESS' },
    });
    expect(
      await answerOf(call('manage_auth_connections', { action: 'get', connection_id: id })),
    ).toMatchObject({ status: 'AUTHENTICATED' });
    await answerOf(call('manage_auth_connections', { action: 'delete', connection_id: id }));
    expect(
      (await call('manage_auth_connections', { action: 'get', connection_id: id })).isError,
    ).toBe(true);
  });

  it('manage_auth_connections waits for a person at hosted_url, and says when the time ran out', async () => {
    const { call } = await connect();
    fake.scriptSignIn('puzzle.example.com', {
      steps: [{ fields: [], blocker: 'Solve the puzzle.' }],
    });
    const { id } = await answerOf(
      call('manage_auth_connections', {
        action: 'create',
        domain: 'puzzle.example.com',
        profile_name: 'puzzle',
      }),
    );
    await answerOf(call('manage_auth_connections', { action: 'login', connection_id: id }));
    const wait = (timeout_seconds: number) =>
      answerOf(
        call('manage_auth_connections', { action: 'wait', connection_id: id, timeout_seconds }),
      );
    // A step only a person can do keeps the wait going until the time runs out.
    const started = Date.now();
    expect(await wait(1)).toMatchObject({
      outcome: 'awaiting_person',
      connection: { external_action_message: expect.stringContaining('Solve the puzzle.') },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    // Done by the person while the tool waits: the wait ends with the flow.
    const solved = setTimeout(() => fake.solveSignIn('puzzle.example.com'), 100);
    try {
      expect(await wait(10)).toMatchObject({ outcome: 'signed_in' });
    } finally {
      clearTimeout(solved);
    }
  });

  it('manage_credentials stores a login, answers its TOTP code, changes and deletes it, never showing a secret', async () => {
    const { call } = await connect();
    const secrets = ['s3cret-pass-7', 'JBSWY3DPEHPK3PXP'];
    const created = await call('manage_credentials', {
      action: 'create',
      name: 'shop-login',
      domain: 'shop.example.com',
      values: { username: 'agent', password: secrets[0] },
      totp_secret: secrets[1],
    });
    expect(created.isError, textOf(created)).toBeFalsy();
    expect(JSON.parse(textOf(created))).toMatchObject({
      name: 'shop-login',
      domain: 'shop.example.com',
      has_totp_secret: true,
    });
    const texts = [textOf(created)];
    const got = await call('manage_credentials', { action: 'get', credential: 'shop-login' });
    texts.push(textOf(got));
    expect(JSON.parse(textOf(got)).value_keys).toEqual(['password', 'username']);
    const listed = await call('manage_credentials', { action: 'list', domain: 'shop.example.com' });
    texts.push(textOf(listed));
    expect(JSON.parse(textOf(listed))).toMatchObject({ items: [{ name: 'shop-login' }] });
    const code = await answerOf(
      call('manage_credentials', { action: 'totp_code', credential: 'shop-login' }),
    );
    expect(code).toMatchObject({
      code: expect.stringMatching(/^\d{6}$/),
      expires_at: expect.any(String),
    });
    const changed = await call('manage_credentials', {
      action: 'update',
      credential: 'shop-login',
      values: { email: 'agent@example.com' },
      remove_value_keys: ['username'],
    });
    texts.push(textOf(changed));
    expect(JSON.parse(textOf(changed)).value_keys).toEqual(['email', 'password']);
    // A bad secret is refused in words that do not repeat it.
    const refused = await call('manage_credentials', {
      action: 'update',
      credential: 'shop-login',
      totp_secret: 'not base32 s3cret!',
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).not.toContain('s3cret');
    for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
    await answerOf(call('manage_credentials', { action: 'delete', credential: 'shop-login' }));
    expect(
      (await call('manage_credentials', { action: 'get', credential: 'shop-login' })).isError,
    ).toBe(true);
  });

  it('manage_credential_providers adds a 1Password Connect server, tests it and lists its items, never showing its token', async () => {
    const token = 'connect-token-42';
    const connect1p = await startOnePasswordConnect({
      token,
      vaults: [
        {
          name: 'Agents',
          items: [
            { title: 'Shop', urls: ['https://shop.example.com/'], username: 'a', password: 'b' },
          ],
        },
      ],
    });
    try {
      const { call } = await connect();
      const created = await call('manage_credential_providers', {
        action: 'create',
        name: 'vault',
        token,
        url: `${connect1p.url}/`,
      });
      expect(created.isError, textOf(created)).toBeFalsy();
      expect(textOf(created)).not.toContain(token);
      expect(JSON.parse(textOf(created))).toMatchObject({
        name: 'vault',
        provider_type: 'onepassword',
      });
      expect(
        await answerOf(call('manage_credential_providers', { action: 'test', provider: 'vault' })),
      ).toMatchObject({ success: true, vaults: [{ name: 'Agents' }] });
      expect(
        await answerOf(
          call('manage_credential_providers', { action: 'list_items', provider: 'vault' }),
        ),
      ).toMatchObject({ items: [{ path: 'Agents/Shop', title: 'Shop' }] });
      expect(
        await answerOf(
          call('manage_credential_providers', { action: 'update', provider: 'vault', priority: 5 }),
        ),
      ).toMatchObject({ priority: 5 });
      const listed = await call('manage_credential_providers', { action: 'list' });
      expect(textOf(listed)).not.toContain(token);
      expect(JSON.parse(textOf(listed))).toMatchObject({ items: [{ name: 'vault' }] });
      expect(
        await answerOf(call('manage_credential_providers', { action: 'get', provider: 'vault' })),
      ).toMatchObject({ name: 'vault', enabled: true });
      await answerOf(call('manage_credential_providers', { action: 'delete', provider: 'vault' }));
      expect(
        (await answerOf(call('manage_credential_providers', { action: 'list' }))).items,
      ).toEqual([]);
    } finally {
      await connect1p.close();
    }
  });

  it('manage_projects creates a project, sets its limits, renames and deletes it', async () => {
    const { call } = await connect();
    const project = await answerOf(call('manage_projects', { action: 'create', name: 'team-b' }));
    expect(project).toMatchObject({ name: 'team-b', status: 'active' });
    expect(
      (await answerOf(call('manage_projects', { action: 'list', query: 'team' }))).items,
    ).toMatchObject([{ id: project.id }]);
    expect(
      await answerOf(call('manage_projects', { action: 'get_limits', project: 'team-b' })),
    ).toEqual({ max_concurrent_sessions: null, max_concurrent_invocations: null });
    expect(
      await answerOf(
        call('manage_projects', {
          action: 'update_limits',
          project: 'team-b',
          max_concurrent_sessions: 2,
        }),
      ),
    ).toMatchObject({ max_concurrent_sessions: 2 });
    await answerOf(
      call('manage_projects', { action: 'update', project: 'team-b', name: 'team-c' }),
    );
    expect(
      await answerOf(call('manage_projects', { action: 'get', project: project.id })),
    ).toMatchObject({
      name: 'team-c',
    });
    await answerOf(call('manage_projects', { action: 'delete', project: 'team-c' }));
    expect((await call('manage_projects', { action: 'get', project: 'team-c' })).isError).toBe(
      true,
    );
  });

  it('manage_api_keys shows a new key once, then only masked, and revokes it', async () => {
    const { call } = await connect();
    const project = await answerOf(call('manage_projects', { action: 'create', name: 'team-b' }));
    const created = await answerOf(
      call('manage_api_keys', {
        action: 'create',
        name: 'agent',
        project: 'team-b',
        read_only: true,
      }),
    );
    expect(created).toMatchObject({
      name: 'agent',
      project_id: project.id,
      project_name: 'team-b',
      read_only: true,
    });
    const key = created.key as string;
    expect(key.length).toBeGreaterThan(16);
    const listed = await call('manage_api_keys', { action: 'list' });
    expect(textOf(listed)).not.toContain(key);
    expect(JSON.parse(textOf(listed)).items).toContainEqual(
      expect.objectContaining({ id: created.id, masked_key: created.masked_key }),
    );
    await answerOf(call('manage_api_keys', { action: 'update', key_id: created.id, name: 'bot' }));
    const got = await call('manage_api_keys', { action: 'get', key_id: created.id });
    expect(textOf(got)).not.toContain(key);
    expect(JSON.parse(textOf(got))).toMatchObject({ name: 'bot', deleted_at: null });
    // The new key reads in its project, and may not write.
    const { call: withKey } = await connect(key);
    expect((await withKey('manage_browsers', { action: 'list' })).isError).toBeFalsy();
    expect(textOf(await withKey('manage_browsers', { action: 'create' }))).toMatch(/403/);
    await answerOf(call('manage_api_keys', { action: 'delete', key_id: created.id }));
    expect(textOf(await withKey('manage_browsers', { action: 'list' }))).toMatch(/401/);
  });

  it('acts in the project `project` names, on existing tools and new ones alike', async () => {
    const { call } = await connect();
    await answerOf(call('manage_projects', { action: 'create', name: 'team-b' }));
    const browser = await answerOf(
      call('manage_browsers', { action: 'create', project: 'team-b', name: 'elsewhere' }),
    );
    const id = browser.session_id as string;
    // Without `project` the calls act in the default project, which holds none of it.
    expect((await answerOf(call('manage_browsers', { action: 'list' }))).items).toEqual([]);
    expect(
      (await answerOf(call('manage_browsers', { action: 'list', project: 'team-b' }))).items,
    ).toMatchObject([{ session_id: id }]);
    const missing = await call('exec_command', { session_id: id, command: 'echo', args: ['hi'] });
    expect(textOf(missing)).toMatch(/404/);
    expect(
      textOf(
        await call('exec_command', {
          session_id: id,
          command: 'echo',
          args: ['hi'],
          project: 'team-b',
        }),
      ),
    ).toMatch(/^Exit code 0/);
    await answerOf(
      call('manage_credentials', {
        action: 'create',
        project: 'team-b',
        name: 'shop',
        domain: 'shop.example.com',
        values: { password: 'x' },
      }),
    );
    expect((await call('manage_credentials', { action: 'get', credential: 'shop' })).isError).toBe(
      true,
    );
    await answerOf(
      call('manage_credentials', { action: 'get', credential: 'shop', project: 'team-b' }),
    );
    const pool = await answerOf(
      call('manage_browser_pools', { action: 'create', project: 'team-b', name: 'warm', size: 1 }),
    );
    expect((await answerOf(call('manage_browser_pools', { action: 'list' }))).items).toEqual([]);
    expect(
      (await answerOf(call('manage_browser_pools', { action: 'list', project: 'team-b' }))).items,
    ).toMatchObject([{ id: pool.id }]);
    // The project goes as the call's header, and only when named.
    expect(
      fake.journal.calls('browserPools.list').map((entry) => entry.headers['x-kernel-project-id']),
    ).toEqual([undefined, 'team-b']);
    const unknown = await call('manage_browsers', { action: 'list', project: 'nowhere' });
    expect(textOf(unknown)).toMatch(/404/);
    await answerOf(
      call('manage_browsers', { action: 'delete', session_id: id, project: 'team-b' }),
    );
  });

  it('cancels a tool call over /mcp whose client goes away: its API call ends at once', async () => {
    const code = 'await new Promise(() => {})';
    fake.scriptPlaywright(code, { outcome: { success: true, result: null }, runForMs: 120_000 });
    const mcp = new McpClient({ name: 'test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${fake.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${fake.tokens.token}` } },
        fetch: fake.fetch,
      }),
    );
    const created = (await mcp.callTool({
      name: 'manage_browsers',
      arguments: { action: 'create' },
    })) as CallToolResult;
    const { session_id: id } = JSON.parse(textOf(created)) as { session_id: string };
    const pending = mcp
      .callTool({
        name: 'execute_playwright_code',
        arguments: { session_id: id, code, timeout_sec: 300 },
      })
      .catch((error: unknown) => error);
    await expect.poll(() => fake.playwrightRuns().length, { timeout: 10_000 }).toBe(1);
    await mcp.close();
    await pending;
    // Left running, the code would hold its call for two minutes.
    await expect
      .poll(() => fake.journal.last('browsers.playwright.execute')?.status, { timeout: 10_000 })
      .toBeDefined();
  });
});
