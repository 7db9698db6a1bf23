import { MAX_LOG_LINE_BYTES } from '@x/types';
import { describe, expect, it } from 'vitest';
import { eventStreamBody } from '../event-stream.js';
import { BROWSER, testModel } from '../test-support/memory-engines.js';
import { linesOf } from './log-lines.js';
import { SESSION_LOG_LINES, SessionLog } from './session-log.js';

/** A stream of these chunks, then its end. */
function streamOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk === undefined) controller.close();
      else controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    },
  });
}

async function collect<T>(lines: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const line of lines) all.push(line);
  return all;
}

describe('the lines of a log', () => {
  it('splits across chunks, skips empty lines and drops a carriage return', async () => {
    const lines = await collect(
      linesOf(
        streamOf(['fir', 'st\r\n\nsec', 'ond\nlast without newline']),
        new AbortController().signal,
      ),
    );
    expect(lines).toEqual([
      { message: 'first' },
      { message: 'second' },
      { message: 'last without newline' },
    ]);
  });

  it('gives the start of a 100 MB line at once and drops the rest, in bounded memory', async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    const chunks: (string | Uint8Array)[] = Array.from({ length: 100 }, () => chunk);
    chunks.push('\nafter\n');
    const before = process.memoryUsage().arrayBuffers;
    const lines = await collect(linesOf(streamOf(chunks), new AbortController().signal));
    expect(lines).toHaveLength(2);
    expect(lines[0]?.truncated).toBe(true);
    expect(lines[0]?.message).toHaveLength(MAX_LOG_LINE_BYTES);
    expect(lines[1]).toEqual({ message: 'after' });
    // One chunk at a time is held, never the line.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
  });

  it('cuts a long line back to a whole character', async () => {
    const euro = '€'.repeat(MAX_LOG_LINE_BYTES); // three bytes each
    const [line] = await collect(linesOf(streamOf([`${euro}\n`]), new AbortController().signal));
    expect(line?.truncated).toBe(true);
    expect(line?.message).toBe('€'.repeat(Math.floor(MAX_LOG_LINE_BYTES / 3)));
  });

  it('stops reading when its signal aborts', async () => {
    const controller = new AbortController();
    let isCancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (stream) => stream.enqueue(new TextEncoder().encode('line\n')),
      cancel: () => {
        isCancelled = true;
      },
    });
    let count = 0;
    for await (const _ of linesOf(endless, controller.signal)) {
      if (++count === 3) controller.abort();
    }
    expect(count).toBe(3);
    expect(isCancelled).toBe(true);
  });
});

describe('a session log', () => {
  const clock = () => new Date('2026-11-25T10:00:00Z');

  it('gives what it holds without follow, and only what comes with it', async () => {
    const log = new SessionLog(clock);
    log.write('service', 'browser started');
    log.write('browser', 'one\ntwo');
    const held = await collect(
      log.read({ process: undefined, follow: false }, new AbortController().signal),
    );
    expect(held.map((line) => line.message)).toEqual(['browser started', 'one', 'two']);
    expect(held[0]).toEqual({
      event: 'log',
      timestamp: '2026-11-25T10:00:00.000Z',
      message: 'browser started',
    });
    const onlyBrowser = await collect(
      log.read({ process: 'browser', follow: false }, new AbortController().signal),
    );
    expect(onlyBrowser.map((line) => line.message)).toEqual(['one', 'two']);

    const controller = new AbortController();
    const followed = log.read({ process: undefined, follow: true }, controller.signal);
    const next = followed.next();
    log.write('service', 'later');
    expect((await next).value?.message).toBe('later');
    controller.abort();
    expect((await followed.next()).done).toBe(true);
  });

  it('keeps the newest lines, and cuts a long one', async () => {
    const log = new SessionLog(clock);
    for (let index = 0; index < SESSION_LOG_LINES + 10; index++)
      log.write('browser', `line ${index}`);
    log.write('browser', 'x'.repeat(MAX_LOG_LINE_BYTES + 10));
    const held = await collect(
      log.read({ process: undefined, follow: false }, new AbortController().signal),
    );
    expect(held).toHaveLength(SESSION_LOG_LINES);
    expect(held[0]?.message).toBe('line 11');
    expect(held.at(-1)).toMatchObject({ truncated: true });
    expect(held.at(-1)?.message).toHaveLength(MAX_LOG_LINE_BYTES);
  });
});

describe('log streams of a model', () => {
  it('give their place back, and stop following, when cancelled before their first line', async () => {
    const { model } = testModel({ limits: { logStreams: 2, fileOperations: 2 } });
    const browser = await model.browsers.create(BROWSER, 'http://localhost:1');
    const id = browser.record.session_id;
    browser.instance.files.putFile('/home/browser/app.log', new TextEncoder().encode('a\n'));
    for (let round = 0; round < 3; round++) {
      const file = eventStreamBody(
        await model.logs.open(id, { source: 'path', path: '/home/browser/app.log', follow: true }),
      );
      const own = eventStreamBody(
        await model.logs.open(id, { source: 'supervisor', follow: true }),
      );
      await file.cancel();
      await own.cancel();
    }
    expect(browser.logStreams).toBe(0);
    expect(browser.fileOperations).toBe(0);
    await model.logs.open(id, { source: 'supervisor', follow: true });
    await model.logs.open(id, { source: 'supervisor', follow: true });
    await expect(model.logs.open(id, { source: 'supervisor', follow: true })).rejects.toMatchObject(
      {
        status: 429,
      },
    );
  });
});
