import { describe, expect, it } from 'vitest';
import { eventStreamBody } from './event-stream.js';

const decoder = new TextDecoder();

describe('eventStreamBody', () => {
  it('sends a heartbeat comment while the source is quiet, then its events', async () => {
    // The source stays quiet until the test lets it go: what is read depends on no timing.
    let release = () => {};
    const quiet = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* source() {
      await quiet;
      yield { type: 'CREATE', path: '/a' };
    }
    const reader = eventStreamBody(() => source(), { heartbeatMs: 5 }).getReader();
    const next = async () => {
      const read = await reader.read();
      return read.done ? undefined : decoder.decode(read.value);
    };
    expect(await next()).toBe(': keepalive\n\n');
    expect(await next()).toBe(': keepalive\n\n');
    release();
    // Heartbeats that came due meanwhile, then the event, then the end.
    let chunk = await next();
    while (chunk === ': keepalive\n\n') chunk = await next();
    expect(chunk).toBe('data: {"type":"CREATE","path":"/a"}\n\n');
    expect(await next()).toBeUndefined();
  });

  it('asks the source for its next event once, however many heartbeats pass', async () => {
    let asked = 0;
    // A source quiet until the stream is cancelled, whose abort wakes it to end, as the
    // service's sources do: only heartbeats can be read.
    async function* source(signal: AbortSignal) {
      while (!signal.aborted) {
        asked += 1;
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        if (!signal.aborted) yield {};
      }
    }
    const reader = eventStreamBody((signal) => source(signal), { heartbeatMs: 5 }).getReader();
    for (let index = 0; index < 5; index++) {
      expect(decoder.decode((await reader.read()).value)).toBe(': keepalive\n\n');
    }
    expect(asked).toBe(1);
    await reader.cancel();
  });
});
