import type { ExecResult, ProcessOutputEvent } from '@x/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { heldBytes } from '../test-support/memory.js';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const OUTPUT_BYTES = 64 * 1024;
const test = useTestServer({
  XB_MAX_PROCESSES_PER_BROWSER: '2',
  XB_MAX_WATCHES_PER_BROWSER: '1',
  XB_PROCESS_OUTPUT_BYTES: String(OUTPUT_BYTES),
});
const call = jsonCaller(() => test.server.url);
let browser: string;

/** The events of a process's output stream, read to its end. */
async function outputEvents(processId: string): Promise<ProcessOutputEvent[]> {
  const response = await fetch(
    `${test.server.url}/browsers/${browser}/process/${processId}/stdout/stream`,
    { headers: { authorization: `Bearer ${TEST_TOKEN}` } },
  );
  const text = await response.text();
  if (response.status !== 200) throw new Error(`output: ${response.status} ${text}`);
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as ProcessOutputEvent);
}

beforeAll(async () => {
  browser = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
});

describe('per-browser limits', () => {
  it('keep a flood of output to a bounded tail: the server does not grow with it', async () => {
    const before = await heldBytes();
    const flood = 300 * 1024 * 1024;
    const { status, json } = await call<ExecResult>('POST', `/browsers/${browser}/process/exec`, {
      command: 'head',
      args: ['-c', String(flood), '/dev/zero'],
    });
    expect(status).toBe(200);
    const kept = Buffer.from(json.stdout_b64, 'base64').byteLength;
    expect(kept).toBeLessThanOrEqual(OUTPUT_BYTES);
    expect(json.dropped_bytes).toBe(flood - kept);
    // What the server holds afterwards: the tail, not the flood (300 MiB).
    expect((await heldBytes()) - before).toBeLessThan(16 * 1024 * 1024);
  });

  it('tell a late reader of the output stream how much it missed', async () => {
    const { json } = await call<{ process_id: string }>(
      'POST',
      `/browsers/${browser}/process/spawn`,
      { command: 'head', args: ['-c', String(4 * OUTPUT_BYTES), '/dev/zero'] },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const events = await outputEvents(json.process_id);
    const first = events[0];
    expect(first?.type).toBe('overflow');
    const data = events
      .flatMap((event) => ('data_b64' in event ? [Buffer.from(event.data_b64, 'base64')] : []))
      .reduce((sum, chunk) => sum + chunk.byteLength, 0);
    expect((first as { lost_bytes: number }).lost_bytes + data).toBe(4 * OUTPUT_BYTES);
    expect(events.at(-1)).toEqual({ type: 'exit', exit_code: 0 });
  });

  it('refuse a process or a watch past the cap with 409 naming the limit', async () => {
    const spawn = () =>
      call<{ message: string }>('POST', `/browsers/${browser}/process/spawn`, {
        command: 'sleep',
        args: ['30'],
      });
    expect((await spawn()).status).toBe(200);
    expect((await spawn()).status).toBe(200);
    const refused = await spawn();
    expect(refused.status).toBe(409);
    expect(refused.json.message).toContain('runs 2 processes, the most it may');

    const watch = () =>
      call<{ message: string }>('POST', `/browsers/${browser}/fs/watch`, {
        path: '/home/browser',
      });
    expect((await watch()).status).toBe(201);
    const second = await watch();
    expect(second.status).toBe(409);
    expect(second.json.message).toContain('has 1 watches, the most it may');
  });
});
