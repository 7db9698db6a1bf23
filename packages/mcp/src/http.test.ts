import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpEndpoint, TOOL_NAMES } from './index.js';

const TOKEN = 'the-token';
const ORIGIN = 'http://service.test';

/**
 * The endpoint in front of an API that answers the calls the test needs (the MCP layer is what
 * is tested here; the service's own answers are tested against the fake and the server). Every
 * call it hears is noted with its token and project header.
 */
function endpoint(options: { maxBodyBytes?: number } = {}) {
  const heard: { method: string; path: string; token: string | null; project: string | null }[] =
    [];
  let aborted = 0;
  const held: Request[] = [];
  const call = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    heard.push({
      method: request.method,
      path: url.pathname,
      token: request.headers.get('authorization'),
      project: request.headers.get('x-kernel-project-id'),
    });
    if (url.pathname === '/browsers/br_slow') {
      // Held as a service holds a call under way: a request nothing holds may be collected, and
      // the abort of a signal that follows another is not passed to a collected one.
      held.push(request);
      await new Promise<void>((_, reject) => {
        request.signal.addEventListener('abort', () => {
          aborted += 1;
          reject(request.signal.reason);
        });
      });
    }
    const shot = /^\/browsers\/br_(big|small)\/computer\/screenshot$/.exec(url.pathname);
    if (shot) {
      const size = shot[1] === 'big' ? 4 * 1024 * 1024 + 1 : 100;
      const png = new Uint8Array(size);
      png.set([0x89, 0x50, 0x4e, 0x47]);
      return new Response(png, { headers: { 'content-type': 'image/png' } });
    }
    if (url.pathname === '/browsers/br_1' && request.method === 'DELETE') {
      return new Response(null, { status: 204 });
    }
    return Response.json({ code: 'not_found', message: 'No such thing.' }, { status: 404 });
  };
  const handle = createMcpEndpoint({
    call,
    isAuthenticated: async (request) => request.headers.get('authorization') === `Bearer ${TOKEN}`,
    publicUrl: () => ORIGIN,
    ...options,
  });
  const fetchIt = (input: string | URL | Request, init?: RequestInit) =>
    handle(new Request(input, init));
  return { heard, handle, fetch: fetchIt, aborted: () => aborted };
}

async function connect(fetchIt: typeof fetch, headers: Record<string, string> = {}) {
  const mcp = new Client({ name: 'test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}`, ...headers } },
      fetch: fetchIt,
    }),
  );
  return mcp;
}

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('the MCP endpoint', () => {
  it('lists the tools and makes each call as the caller, with its token and project', async () => {
    const { heard, fetch: fetchIt } = endpoint();
    const mcp = await connect(fetchIt as typeof fetch, { 'x-kernel-project-id': 'team-a' });
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    const deleted = (await mcp.callTool({
      name: 'manage_browsers',
      arguments: { action: 'delete', session_id: 'br_1' },
    })) as CallToolResult;
    expect(deleted.isError, JSON.stringify(deleted)).toBeFalsy();
    expect(heard).toEqual([
      { method: 'DELETE', path: '/browsers/br_1', token: `Bearer ${TOKEN}`, project: 'team-a' },
    ]);
    const missing = (await mcp.callTool({
      name: 'manage_browsers',
      arguments: { action: 'get', session_id: 'br_2' },
    })) as CallToolResult;
    expect(missing).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'manage_browsers: 404 not_found: No such thing.' }],
    });
    await mcp.close();
  });

  it('answers a screenshot as an image, and one past its bound as a line saying so', async () => {
    const { fetch: fetchIt } = endpoint();
    const mcp = await connect(fetchIt as typeof fetch);
    const shoot = async (id: string) =>
      (await mcp.callTool({
        name: 'computer_action',
        arguments: { session_id: id, actions: [{ type: 'screenshot' }] },
      })) as CallToolResult;
    expect((await shoot('br_small')).content.at(-1)).toMatchObject({
      type: 'image',
      mimeType: 'image/png',
    });
    expect((await shoot('br_big')).content.at(-1)).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^\[cut: the screenshot is 4194305 bytes, .* region/),
    });
    await mcp.close();
  });

  it('answers 401 before anything without a known token, and hears nothing of it', async () => {
    const { heard, handle } = endpoint();
    for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
      const answer = await handle(post(LIST, headers));
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect(await answer.json()).toMatchObject({ code: 'unauthorized' });
    }
    expect(heard).toEqual([]);
  });

  it('takes POST only, a body within its bound, and JSON', async () => {
    const { handle } = endpoint({ maxBodyBytes: 1000 });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const get = await handle(new Request(`${ORIGIN}/mcp`, { headers: auth }));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await handle(post('x'.repeat(1001), auth))).status).toBe(413);
    // A body that says nothing of its length is counted as it comes.
    const streamed = new Request(`${ORIGIN}/mcp`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let index = 0; index < 4; index++) controller.enqueue(new Uint8Array(400));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect((await handle(streamed)).status).toBe(413);
    const notJson = await handle(post('{', auth));
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ code: 'bad_request' });
  });

  it('aborts the API call of a tool call whose client goes away', async () => {
    const { heard, handle, aborted } = endpoint();
    const controller = new AbortController();
    const request = new Request(`${ORIGIN}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'manage_browsers', arguments: { action: 'get', session_id: 'br_slow' } },
      }),
      signal: controller.signal,
    });
    const answered = handle(request);
    await expect.poll(() => heard.length, { timeout: 10_000 }).toBe(1);
    controller.abort();
    // Answered at once, for no one; the API call under way aborted.
    expect((await answered).status).toBe(499);
    await expect.poll(aborted, { timeout: 10_000 }).toBe(1);
  });
});
