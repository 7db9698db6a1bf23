import { describe, expect, it } from 'vitest';
import { eventStreamBody } from './event-stream.js';

const decoder = new TextDecoder();

describe('eventStreamBody', () => {
  it('sends a heartbeat comment while the source is quiet, then its events', async () => {
    async function* source() {
      await new Promise((resolve) => setTimeout(resolve, 130));
      yield { type: 'CREATE', path: '/a' };
    }
    const reader = eventStreamBody(() => source(), { heartbeatMs: 30 }).getReader();
    const chunks: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks.push(decoder.decode(read.value));
    }
    const beats = chunks.filter((chunk) => chunk === ': keepalive\n\n');
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(chunks.at(-1)).toBe('data: {"type":"CREATE","path":"/a"}\n\n');
    expect(chunks.length).toBe(beats.length + 1);
  });

  it('asks the source for its next event once, however many heartbeats pass', async () => {
    let asked = 0;
    async function* source() {
      while (true) {
        asked += 1;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        yield {};
      }
    }
    const reader = eventStreamBody(() => source(), { heartbeatMs: 5 }).getReader();
    for (let index = 0; index < 5; index++) {
      expect(decoder.decode((await reader.read()).value)).toBe(': keepalive\n\n');
    }
    expect(asked).toBe(1);
    await reader.cancel();
  });
});
