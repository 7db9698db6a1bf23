import { describe, expect, it } from 'vitest';
import { eventDataStream } from './event-data.js';

/** The data of every event `chunks` make, read through the parser. */
async function dataOf(chunks: string[], maxChars = 1_000): Promise<string[]> {
  const source = new ReadableStream<string>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const reader = source.pipeThrough(eventDataStream(maxChars)).getReader();
  const events: string[] = [];
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    events.push(read.value);
  }
  return events;
}

describe('eventDataStream', () => {
  it('reads data lines as the standard does: joined by LF, one leading space dropped', async () => {
    const text = 'data: a\ndata:b\ndata:  c\ndata\n\ndata: second\n\n';
    expect(await dataOf([text])).toEqual(['a\nb\n c\n', 'second']);
  });

  it('ends lines at CRLF, LF or CR alike, wherever the chunks break', async () => {
    const text = 'data: one\r\n\r\ndata: two\r\rdata: three\n\ndata: four\r\n\r\n';
    const expected = ['one', 'two', 'three', 'four'];
    expect(await dataOf([text])).toEqual(expected);
    // Every character its own chunk: each CRLF arrives split, and is still one line end.
    expect(await dataOf([...text])).toEqual(expected);
  });

  it('skips comments, other fields and events without data', async () => {
    const text =
      ': keepalive\n\nevent: state\nid: 7\nretry: 100\nfoo: bar\ndata: kept\n\nid: 8\n\n';
    expect(await dataOf([text])).toEqual(['kept']);
  });

  it('hands on an event ended by CRs at once, without waiting for the next chunk', async () => {
    const parser = eventDataStream(1_000);
    const writer = parser.writable.getWriter();
    const reader = parser.readable.getReader();
    void writer.write('data: first\r\r');
    expect(await reader.read()).toEqual({ done: false, value: 'first' });
    // The LF that may follow a chunk's last CR is that CR's other half, not a blank line.
    void writer.write('\ndata: second\r');
    void writer.write('\n\r\n');
    expect(await reader.read()).toEqual({ done: false, value: 'second' });
    void writer.close();
    expect((await reader.read()).done).toBe(true);
  });

  it('drops an event the stream ends in, and takes a last CR as a line end', async () => {
    expect(await dataOf(['data: done\n\ndata: cut off'])).toEqual(['done']);
    expect(await dataOf(['data: last\r\r'])).toEqual(['last']);
  });

  it('fails a stream whose event grows past the bound, in one line or in many', async () => {
    await expect(dataOf(['data: ', 'x'.repeat(50)], 40)).rejects.toThrow(/past 40 characters/);
    const lines = Array.from({ length: 10 }, () => 'data: 0123456789\n');
    await expect(dataOf(lines, 40)).rejects.toThrow(RangeError);
    // Ended events free their share: many small events pass the same bound.
    expect(
      await dataOf(
        Array.from({ length: 10 }, () => 'data: 0123456789\n\n'),
        40,
      ),
    ).toHaveLength(10);
  });
});
