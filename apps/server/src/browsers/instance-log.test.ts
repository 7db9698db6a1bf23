import { PassThrough } from 'node:stream';
import { MAX_LOG_LINE_BYTES } from '@x/types';
import { describe, expect, it } from 'vitest';
import { InstanceLog, type InstanceLogLine } from './instance-log.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a browser's own log", () => {
  it('gives a line that never ends in parts, so it holds no more than a part', async () => {
    const log = new InstanceLog();
    const lines: InstanceLogLine[] = [];
    log.listen((line) => lines.push(line));
    const stderr = new PassThrough();
    log.read(stderr);
    stderr.write('x'.repeat(MAX_LOG_LINE_BYTES * 2 + 10));
    await settle();
    expect(lines.map((line) => line.message.length)).toEqual([
      MAX_LOG_LINE_BYTES,
      MAX_LOG_LINE_BYTES,
    ]);
  });

  it('keeps a listener that throws from throwing into the process', async () => {
    const log = new InstanceLog();
    let heard = 0;
    log.listen(() => {
      heard++;
      throw new RangeError('the session log refused the line');
    });
    const stderr = new PassThrough();
    log.read(stderr);
    stderr.write('one\ntwo\n');
    await settle();
    expect(heard).toBe(2);
  });
});
