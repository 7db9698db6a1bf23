import Kernel from '@onkernel/sdk';
import type { SpawnedProcess } from '@x/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../test-support/event-stream.js';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const handle = useTestServer();
const call = jsonCaller(() => handle.server.url);
let browser: string;

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Everything a process wrote to its output stream until `until` holds or it exits. */
async function readOutput(
  processId: string,
  until: (text: string) => boolean,
): Promise<{ text: string; exitCode: number | undefined }> {
  const stream = await openEventStream(
    `${handle.server.url}/browsers/${browser}/process/${processId}/stdout/stream`,
  );
  let text = '';
  let exitCode: number | undefined;
  try {
    while (!until(text) && exitCode === undefined) {
      const frame = await stream.next();
      if (!frame) break;
      const event = JSON.parse(frame.data) as {
        type: string;
        data_b64?: string;
        exit_code?: number;
      };
      if (event.type === 'stdout' || event.type === 'stderr')
        text += Buffer.from(event.data_b64 ?? '', 'base64').toString();
      if (event.type === 'exit') exitCode = event.exit_code;
    }
  } finally {
    stream.close();
  }
  return { text, exitCode };
}

const readOutputOf = (processId: string) => readOutput(processId, () => false);

const spawn = async (body: Record<string, unknown>) => {
  const answer = await call<SpawnedProcess>('POST', `/browsers/${browser}/process/spawn`, body);
  expect(answer.status).toBe(200);
  return answer.json.process_id;
};

beforeAll(async () => {
  browser = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
});

describe('process input and terminals', () => {
  it('a spawned process reads what stdin gets, through a pipe', async () => {
    const id = await spawn({ command: 'sh', args: ['-c', 'read line; echo "got: $line"'] });
    const written = await call<{ written_bytes: number }>(
      'POST',
      `/browsers/${browser}/process/${id}/stdin`,
      { data_b64: b64('hello there\n') },
    );
    expect(written).toEqual({ status: 200, json: { written_bytes: 12 } });
    const { text, exitCode } = await readOutput(id, () => false);
    expect(text).toBe('got: hello there\n');
    expect(exitCode).toBe(0);
    // It has exited: its input is closed.
    const late = await call('POST', `/browsers/${browser}/process/${id}/stdin`, {
      data_b64: b64('x'),
    });
    expect(late.status).toBe(409);
  });

  it('a process on a terminal sees its size, and the new one after a resize', async () => {
    const id = await spawn({
      command: 'sh',
      args: ['-c', 'stty size; read go; stty size; tty >/dev/null && echo on-a-tty'],
      allocate_tty: true,
      rows: 30,
      cols: 100,
    });
    const first = await readOutput(id, (text) => text.includes('30 100'));
    expect(first.text).toContain('30 100');
    const resized = await call('POST', `/browsers/${browser}/process/${id}/resize`, {
      rows: 50,
      cols: 120,
    });
    expect(resized).toEqual({ status: 200, json: { ok: true } });
    await call('POST', `/browsers/${browser}/process/${id}/stdin`, { data_b64: b64('go\r') });
    const all = await readOutput(id, () => false);
    expect(all.text).toMatch(/30 100\r\n[\s\S]*50 120\r\non-a-tty\r\n/);
    expect(all.exitCode).toBe(0);
  });

  it('a terminal echoes what is typed, and Ctrl-C interrupts what runs on it', async () => {
    const id = await spawn({ command: 'sh', allocate_tty: true });
    await call('POST', `/browsers/${browser}/process/${id}/stdin`, {
      data_b64: b64('echo $((6 * 7))\r'),
    });
    expect((await readOutput(id, (text) => text.includes('42\r\n'))).text).toContain('42\r\n');
    await call('POST', `/browsers/${browser}/process/${id}/stdin`, { data_b64: b64('sleep 60\r') });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The interrupt flushes what waits to be read: what comes next is typed after it.
    await call('POST', `/browsers/${browser}/process/${id}/stdin`, { data_b64: b64('\u0003') });
    expect((await readOutput(id, (text) => text.includes('^C'))).text).toContain('^C');
    await call('POST', `/browsers/${browser}/process/${id}/stdin`, {
      data_b64: b64('echo still $((1 + 1))\r'),
    });
    expect((await readOutput(id, (text) => text.includes('still 2\r\n'))).text).toContain(
      'still 2\r\n',
    );
    // Ctrl-D at an empty line is the end of its input: the shell exits.
    await call('POST', `/browsers/${browser}/process/${id}/stdin`, { data_b64: b64('\u0004') });
    expect((await readOutput(id, () => false)).exitCode).toBeDefined();
  });

  it('answers the Kernel SDK 0.84: spawn on a terminal, stdin, resize', async () => {
    const sdk = new Kernel({ apiKey: TEST_TOKEN, baseURL: handle.server.url, maxRetries: 0 });
    const spawned = await sdk.browsers.process.spawn(browser, {
      command: 'sh',
      args: ['-c', 'read go; stty size'],
      allocate_tty: true,
      rows: 20,
      cols: 60,
    });
    const processId = spawned.process_id as string;
    expect(
      await sdk.browsers.process.resize(processId, { id: browser, rows: 21, cols: 61 }),
    ).toEqual({
      ok: true,
    });
    expect(
      await sdk.browsers.process.stdin(processId, { id: browser, data_b64: b64('go\r') }),
    ).toEqual({ written_bytes: 3 });
    const { text } = await readOutputOf(processId);
    expect(text).toContain('21 61\r\n');
  });

  it('refuses what does not fit', async () => {
    const piped = await spawn({ command: 'sleep', args: ['30'] });
    const notTty = await call('POST', `/browsers/${browser}/process/${piped}/resize`, {
      rows: 10,
      cols: 10,
    });
    expect(notTty.status).toBe(400);
    expect(
      (await call('POST', `/browsers/${browser}/process/spawn`, { command: 'sh', rows: 10 }))
        .status,
    ).toBe(400);
    expect(
      (
        await call('POST', `/browsers/${browser}/process/spawn`, {
          command: 'sh',
          allocate_tty: true,
          cols: 70_000,
        })
      ).status,
    ).toBe(400);
    expect(
      (await call('POST', `/browsers/${browser}/process/${piped}/stdin`, { data_b64: '***' }))
        .status,
    ).toBe(400);
    // A process that never reads: its input fills up to the bound, then writes are refused.
    const chunk = Buffer.alloc(256 * 1024, 97).toString('base64');
    const statuses: number[] = [];
    for (let index = 0; index < 8; index++) {
      statuses.push(
        (await call('POST', `/browsers/${browser}/process/${piped}/stdin`, { data_b64: chunk }))
          .status,
      );
    }
    expect(statuses).toContain(429);
    await call('POST', `/browsers/${browser}/process/${piped}/kill`, { signal: 'KILL' });
  });
});
