import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AbortError, ResponseValidationError } from '../errors/index.js';
import { saveToFile } from '../node/index.js';
import { useRecordingServer } from '../test-support/recording-server.js';
import * as samples from '../test-support/samples.js';

const rig = useRecordingServer();
let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'xb-client-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));
beforeEach(() => rig.server.reset());

describe('binary responses', () => {
  it('returns a screenshot as a stream with its media type, and saves it to a file', async () => {
    rig.server.respond('POST', '/browsers/br_1/computer/screenshot', {
      status: 200,
      headers: { 'content-type': 'image/png' },
      body: samples.pngBytes,
    });
    const png = await rig.client.browsers.computer.screenshot({
      id: 'br_1',
      region: { x: 0, y: 0, width: 10, height: 10 },
    });
    expect(png.contentType).toBe('image/png');
    expect(png.contentLength).toBe(samples.pngBytes.byteLength);
    const path = join(directory, 'shot.png');
    expect(await saveToFile(png, path)).toBe(samples.pngBytes.byteLength);
    expect(new Uint8Array(await readFile(path))).toEqual(samples.pngBytes);
    expect(JSON.parse(rig.server.calls[0]!.body.toString())).toEqual({
      region: { x: 0, y: 0, width: 10, height: 10 },
    });
  });

  it('downloads an extension zip into memory', async () => {
    rig.server.respond('GET', '/extensions/adblock', {
      status: 200,
      headers: { 'content-type': 'application/zip' },
      body: new Uint8Array([0x50, 0x4b, 5, 6]),
    });
    const zip = await rig.client.extensions.download({ id_or_name: 'adblock' });
    expect(await zip.bytes()).toEqual(new Uint8Array([0x50, 0x4b, 5, 6]));
  });

  it('tells a finished replay (200, MP4) from one still recording (202)', async () => {
    rig.server.respond('GET', '/browsers/br_1/replays/rp_1', {
      status: 202,
      json: samples.replay,
      headers: { 'retry-after': '1' },
    });
    const pending = await rig.client.browsers.replays.download({ id: 'br_1', replay_id: 'rp_1' });
    expect(pending).toEqual({ status: 202, value: samples.replay });
    rig.server.respond('GET', '/browsers/br_1/replays/rp_1', {
      status: 200,
      headers: { 'content-type': 'video/mp4' },
      body: new Uint8Array([0, 0, 0, 24]),
    });
    const done = await rig.client.browsers.replays.download({ id: 'br_1', replay_id: 'rp_1' });
    expect(done.status).toBe(200);
    if (done.status === 200) expect(done.value.contentType).toBe('video/mp4');
  });

  it('leaves no partial file when a download breaks off', async () => {
    rig.server.respond('GET', '/extensions/broken', (_call, response) => {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': '100000' });
      response.write(Buffer.alloc(1000));
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const zip = await rig.client.extensions.download({ id_or_name: 'broken' });
    const path = join(directory, 'broken.zip');
    await expect(saveToFile(zip, path)).rejects.toThrow();
    expect((await readdir(directory)).filter((name) => name.startsWith('broken'))).toEqual([]);
  });
});

describe('event streams', () => {
  const sse =
    (events: unknown[], keepOpen = false) =>
    (_call: unknown, response: import('node:http').ServerResponse) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req-sse' });
      response.write(': connected\n\n');
      for (const event of events)
        response.write(`event: message\ndata: ${JSON.stringify(event)}\n\n`);
      if (!keepOpen) response.end();
    };

  it('yields watch events in order and ends when the server closes the stream', async () => {
    const events = [
      { type: 'CREATE', path: '/home/browser/Downloads/a.pdf', name: 'a.pdf', is_dir: false },
      { type: 'WRITE', path: '/home/browser/Downloads/a.pdf' },
      { type: 'OVERFLOW', lost: 3 },
      { type: 'DELETE', path: '/home/browser/Downloads/a.pdf' },
    ];
    rig.server.respond('GET', '/browsers/br_1/fs/watch/w_1/events', sse(events));
    const stream = await rig.client.browsers.fs.watch.events({ id: 'br_1', watch_id: 'w_1' });
    const received = [];
    for await (const event of stream) received.push(event);
    expect(received).toEqual(events);
  });

  it("streams an auth connection's flow states", async () => {
    const states = [
      {
        event: 'managed_auth_state',
        timestamp: '2026-11-25T10:00:00.000Z',
        flow_status: 'IN_PROGRESS',
        flow_step: 'AWAITING_INPUT',
        fields: [{ id: 'password', ref: 'password', type: 'password', label: 'Password' }],
      },
      {
        event: 'managed_auth_state',
        timestamp: '2026-11-25T10:00:02.000Z',
        flow_status: 'SUCCESS',
        flow_step: 'COMPLETED',
      },
    ];
    rig.server.respond('GET', '/auth/connections/auth_1/events', sse(states));
    const stream = await rig.client.auth.connections.events({ id: 'auth_1' });
    const received = [];
    for await (const state of stream) received.push(state);
    expect(received).toEqual(states);
  });

  it("follows a deployment's events to its end, heartbeats included", async () => {
    const events = [
      { event: 'log', timestamp: '2026-11-25T10:00:00.000Z', message: 'added 3 packages' },
      { event: 'sse_heartbeat', timestamp: '2026-11-25T10:00:01.000Z' },
      {
        event: 'app_version_summary',
        timestamp: '2026-11-25T10:00:02.000Z',
        ...samples.appVersion,
      },
      {
        event: 'deployment_state',
        timestamp: '2026-11-25T10:00:03.000Z',
        deployment: samples.deployment,
      },
    ];
    rig.server.respond('GET', '/deployments/dep_1/events', sse(events));
    const stream = await rig.client.deployments.events({ id: 'dep_1' });
    const received = [];
    for await (const event of stream) received.push(event);
    expect(received).toEqual(events);
  });

  it("follows an invocation's console and states to its end", async () => {
    const events = [
      { event: 'log', timestamp: '2026-11-25T10:00:00.000Z', message: 'made br_1' },
      {
        event: 'invocation_state',
        timestamp: '2026-11-25T10:00:01.000Z',
        invocation: { ...samples.invocation, status: 'succeeded', output: '1' },
      },
    ];
    rig.server.respond('GET', '/invocations/inv_1/events', sse(events));
    const stream = await rig.client.invocations.events({ id: 'inv_1' });
    const received = [];
    for await (const event of stream) received.push(event);
    expect(received).toEqual(events);
  });

  it('streams the lines of a log, its query in the URL', async () => {
    const lines = [
      { event: 'log', timestamp: '2026-11-25T10:00:00.000Z', message: 'ready' },
      {
        event: 'log',
        timestamp: '2026-11-25T10:00:01.000Z',
        message: 'x'.repeat(8),
        truncated: true,
      },
    ];
    rig.server.respond('GET', '/browsers/br_1/logs/stream', sse(lines));
    const stream = await rig.client.browsers.logs.stream({
      id: 'br_1',
      source: 'path',
      path: '/home/browser/app.log',
      follow: false,
    });
    const received = [];
    for await (const line of stream) received.push(line);
    expect(received).toEqual(lines);
    const url = new URL(rig.server.calls[0]!.url, 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      source: 'path',
      path: '/home/browser/app.log',
      follow: 'false',
    });
  });

  it('streams telemetry envelopes, resuming after a sequence number', async () => {
    const envelopes = [
      {
        seq: 8,
        event: {
          category: 'console',
          type: 'console_log',
          ts: 1_795_000_000_000_000,
          source: { kind: 'cdp', event: 'Runtime.consoleAPICalled' },
          data: { text: 'hello', args: ['hello'], level: 'log' },
        },
      },
    ];
    rig.server.respond('GET', '/browsers/br_1/telemetry/stream', (_call, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const envelope of envelopes)
        response.write(`id: ${envelope.seq}\ndata: ${JSON.stringify(envelope)}\n\n`);
      response.end();
    });
    const stream = await rig.client.browsers.telemetry.stream({ id: 'br_1', last_event_id: 7 });
    const received = [];
    for await (const envelope of stream) received.push(envelope);
    expect(received).toEqual(envelopes);
    const url = new URL(rig.server.calls[0]!.url, 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({ last_event_id: '7' });
  });

  /** Serves `pieces` as the output stream, each its own chunk 10 ms apart; gives what was read. */
  async function outputFrom(pieces: string[]): Promise<unknown[]> {
    rig.server.respond('GET', '/browsers/br_1/process/pr_1/stdout/stream', (_call, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const next = () => {
        const piece = pieces.shift();
        if (piece === undefined) response.end();
        else response.write(piece, () => setTimeout(next, 10));
      };
      next();
    });
    const stream = await rig.client.browsers.process.output({ id: 'br_1', process_id: 'pr_1' });
    const received = [];
    for await (const event of stream) received.push(event);
    return received;
  }
  const stdoutThenExit = [
    { type: 'stdout', data_b64: 'aGkK' },
    { type: 'exit', exit_code: 0 },
  ];

  it('yields process output then the exit, across chunk boundaries', async () => {
    const received = await outputFrom([
      'data: {"type":"stdout",',
      '"data_b64":"aGkK"}\r\n\r\ndata: {"type":"exit","exit_code":0}\n\n',
    ]);
    expect(received).toEqual(stdoutThenExit);
  });

  it('reads a CRLF split across chunks as one line end, and skips heartbeat comments', async () => {
    // A \r ends one chunk, its \n starts the next. The first event's two data lines are one
    // event; a parser that took that \r\n for two line ends would end it after its first line.
    const received = await outputFrom([
      ': keepalive\r\n\r\n',
      'data: {"type":"stdout",\r',
      '\ndata: "data_b64":"aGkK"}\r\n\r',
      '\ndata: {"type":"exit","exit_code":0}\r\n\r\n',
    ]);
    expect(received).toEqual(stdoutThenExit);
  });

  it('breaks off a stream whose event grows past the bound, instead of holding it', async () => {
    rig.server.respond('GET', '/browsers/br_1/process/pr_1/stdout/stream', (_call, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const line = `data: ${'x'.repeat(1024 * 1024)}\n`;
      for (let index = 0; index < 5; index++) response.write(line);
      response.end();
    });
    const stream = await rig.client.browsers.process.output({ id: 'br_1', process_id: 'pr_1' });
    const reading = (async () => {
      for await (const _event of stream) {
        // Nothing arrives: the one event never ends within the bound.
      }
    })();
    await expect(reading).rejects.toMatchObject({ code: 'connection_error' });
  });

  it('ends cleanly when the caller closes the stream or aborts', async () => {
    rig.server.respond(
      'GET',
      '/browsers/br_1/fs/watch/w_1/events',
      sse([{ type: 'CREATE', path: '/x' }], true),
    );
    const stream = await rig.client.browsers.fs.watch.events({ id: 'br_1', watch_id: 'w_1' });
    const received = [];
    for await (const event of stream) {
      received.push(event);
      await stream.close();
    }
    expect(received).toHaveLength(1);

    const controller = new AbortController();
    const aborted = await rig.client.browsers.fs.watch.events(
      { id: 'br_1', watch_id: 'w_1' },
      { signal: controller.signal },
    );
    const reading = (async () => {
      for await (const _ of aborted) controller.abort();
    })();
    await expect(reading).rejects.toBeInstanceOf(AbortError);
  });

  it('ends a loop that waits for an event when the stream is closed from outside it', async () => {
    rig.server.respond('GET', '/browsers/br_1/fs/watch/w_1/events', (_call, response) => {
      // Headers, then nothing: the loop below waits for an event that never comes.
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
    });
    const stream = await rig.client.browsers.fs.watch.events({ id: 'br_1', watch_id: 'w_1' });
    const reading = (async () => {
      const received = [];
      for await (const event of stream) received.push(event);
      return received;
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await stream.close();
    await expect(reading).resolves.toEqual([]);
  });

  it('outlives the attempt time-out while events keep coming', async () => {
    rig.server.respond('GET', '/browsers/br_1/fs/watch/w_1/events', (_call, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // The headers go at once: the attempt's time-out is for them.
      response.flushHeaders();
      let count = 0;
      const timer = setInterval(() => {
        response.write(`data: ${JSON.stringify({ type: 'WRITE', path: `/f${count}` })}\n\n`);
        if (++count === 5) {
          clearInterval(timer);
          response.end();
        }
      }, 300);
    });
    // Five events 300 ms apart: the stream lasts well past the 1 s time-out of its attempt.
    const stream = await rig.client.browsers.fs.watch.events(
      { id: 'br_1', watch_id: 'w_1' },
      { timeout: 1000 },
    );
    const received = [];
    for await (const event of stream) received.push(event);
    expect(received).toHaveLength(5);
  });

  it('ends with a ResponseValidationError on an event that breaks the contract', async () => {
    rig.server.respond(
      'GET',
      '/browsers/br_1/fs/watch/w_1/events',
      sse([{ type: 'CHMOD', path: '/x' }]),
    );
    const stream = await rig.checkedClient.browsers.fs.watch.events({
      id: 'br_1',
      watch_id: 'w_1',
    });
    const reading = (async () => {
      for await (const _ of stream) {
        // Drain.
      }
    })();
    await expect(reading).rejects.toBeInstanceOf(ResponseValidationError);
  });
});
