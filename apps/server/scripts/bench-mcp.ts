/**
 * What a tool call of the MCP endpoint adds to the API call it makes, from one run on loopback:
 * the official SDK client calling `manage_browsers` (get) and `computer_action`
 * (get_mouse_position) at `/mcp`, against the same REST calls made with `fetch` in the same run.
 *
 * Run: pnpm --filter @x/server bench:mcp   (after a build)
 */
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BENCH_TOKEN, benchServer, quantile, timingLine, timings } from './bench-support.ts';

const { dataDir, server, call } = await benchServer('mcp');
const mcp = new Client({ name: 'bench', version: '1.0.0' });
const line = (name: string, times: number[]) => timingLine(name, times, 52);

try {
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${BENCH_TOKEN}` } },
    }),
  );
  const { session_id: id } = await call<{ session_id: string }>('POST', '/browsers', {});
  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  };
  const pairs = [
    [
      'get a browser',
      () => call('GET', `/browsers/${id}`),
      () => tool('manage_browsers', { action: 'get', session_id: id }),
    ],
    [
      'mouse position',
      () => call('POST', `/browsers/${id}/computer/get_mouse_position`),
      () => tool('computer_action', { session_id: id, actions: [{ type: 'get_mouse_position' }] }),
    ],
  ] as const;
  for (const [name, rest, viaMcp] of pairs) {
    // Alternated, so both see the same machine.
    const restTimes: number[] = [];
    const mcpTimes: number[] = [];
    for (let round = 0; round < 5; round++) {
      restTimes.push(...(await timings(40, rest, 5)));
      mcpTimes.push(...(await timings(40, viaMcp, 5)));
    }
    const added = quantile(mcpTimes, 0.5) - quantile(restTimes, 0.5);
    console.log(line(`REST, ${name}`, restTimes));
    console.log(line(`MCP tool call, ${name}`, mcpTimes));
    console.log(
      `added by MCP, ${name} (p50)`.padEnd(52) +
        ` ${added.toFixed(2).padStart(7)} ms   ratio ${(quantile(mcpTimes, 0.5) / quantile(restTimes, 0.5)).toFixed(2)}x   target: <= 5 ms`,
    );
  }
  await call('DELETE', `/browsers/${id}`);
} finally {
  await mcp.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
