import Kernel from '@onkernel/sdk';
import { type LogEvent, MAX_LOG_LINE_BYTES } from '@x/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../test-support/event-stream.js';
import { processesOfServer } from '../test-support/processes.js';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const handle = useTestServer();
const call = jsonCaller(() => handle.server.url);
let browser: string;

/** Runs a shell command in the session and waits for it to end. */
async function sh(script: string, id = browser): Promise<void> {
  const ran = await call<{ exit_code: number }>('POST', `/browsers/${id}/process/exec`, {
    command: 'sh',
    args: ['-c', script],
    timeout_sec: 60,
  });
  expect(ran.json.exit_code).toBe(0);
}

/** Opens a log stream: its status, and its events as they come (each within 20 s). */
async function open(query: string, id = browser) {
  const stream = await openEventStream(`${handle.server.url}/browsers/${id}/logs/stream?${query}`);
  return {
    status: stream.status,
    async next(): Promise<LogEvent | undefined> {
      const frame = await stream.next();
      return frame && (JSON.parse(frame.data) as LogEvent);
    },
    close: stream.close,
  };
}

/** The `tail`s following a file for this server's log streams. */
const tails = () => processesOfServer(handle.dataDir).filter((process) => process.name === 'tail');

beforeAll(async () => {
  browser = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
});

describe('log streams', () => {
  it('follows a file from its end while a process appends to it', async () => {
    await sh('echo old line > /home/browser/app.log');
    const stream = await open('source=path&path=/home/browser/app.log&follow=true');
    expect(stream.status).toBe(200);
    const writer = call('POST', `/browsers/${browser}/process/spawn`, {
      command: 'sh',
      args: ['-c', 'for i in 1 2 3; do echo "line $i" >> /home/browser/app.log; sleep 0.2; done'],
    });
    const seen = [];
    for (let index = 0; index < 3; index++) seen.push((await stream.next())?.message);
    expect(tails()).toHaveLength(1);
    stream.close();
    await writer;
    expect(seen).toEqual(['line 1', 'line 2', 'line 3']);
    // The caller went away: so did what followed the file for it.
    await expect.poll(() => tails().length, { timeout: 5000 }).toBe(0);
  });

  it('reads a whole file without follow and ends; a 100 MB line comes as its start', async () => {
    await sh(
      "printf 'first\\n' > /home/browser/big.log && head -c 104857600 /dev/zero | tr '\\0' a >> /home/browser/big.log && printf '\\nafter\\n' >> /home/browser/big.log",
    );
    const stream = await open('source=path&path=/home/browser/big.log&follow=false');
    const first = await stream.next();
    const long = await stream.next();
    const after = await stream.next();
    const end = await stream.next();
    expect(first?.message).toBe('first');
    expect(long?.truncated).toBe(true);
    expect(long?.message).toBe('a'.repeat(MAX_LOG_LINE_BYTES));
    expect(after?.message).toBe('after');
    expect(end).toBeUndefined();
    await sh('rm /home/browser/big.log');
  });

  it('refuses what read_file refuses: outside the home, through a link, a directory, nothing', async () => {
    await sh('ln -sf /etc/passwd /home/browser/passwd.log');
    for (const [query, status] of [
      ['source=path&path=/etc/passwd', 400],
      ['source=path&path=/home/browser/passwd.log', 400],
      ['source=path&path=/home/browser', 400],
      ['source=path&path=/home/browser/none.log', 404],
      ['source=path', 400],
    ] as const) {
      const stream = await open(query);
      stream.close();
      expect([query, stream.status]).toEqual([query, status]);
    }
  });

  it('streams the session’s own log: the service’s lines about it', async () => {
    const stream = await open('source=supervisor&supervisor_process=service&follow=false');
    const first = await stream.next();
    stream.close();
    expect(first?.message).toMatch(new RegExp(`^browser ${browser}: chromium started \\(pid \\d+`));
  });

  it('ends every stream of a browser when it ends, and leaves no tail running', async () => {
    const own = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
    await sh('touch /home/browser/own.log', own);
    const file = await open('source=path&path=/home/browser/own.log', own);
    const service = await open('source=supervisor', own);
    expect((await call('DELETE', `/browsers/${own}`)).status).toBe(204);
    expect(await file.next()).toBeUndefined();
    // The service log says it ended, then ends.
    expect((await service.next())?.message).toBe(`browser ${own} ends (deleted)`);
    expect(await service.next()).toBeUndefined();
    expect(tails()).toEqual([]);
  });

  it('answers the Kernel SDK 0.84', async () => {
    await sh('printf "one\\ntwo\\n" > /home/browser/sdk.log');
    const sdk = new Kernel({ apiKey: TEST_TOKEN, baseURL: handle.server.url, maxRetries: 0 });
    const stream = await sdk.browsers.logs.stream(browser, {
      source: 'path',
      path: '/home/browser/sdk.log',
      follow: false,
    });
    const lines = [];
    for await (const line of stream) lines.push(line);
    expect(lines.map((line) => [line.event, line.message])).toEqual([
      ['log', 'one'],
      ['log', 'two'],
    ]);
  });
});
