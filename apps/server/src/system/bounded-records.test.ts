import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type ByteCount, type Overflow, readBoundedRecords } from './bounded-records.js';

function reader(
  maxRecordBytes: number,
  maxTotalBytes?: number,
  onRecord?: (r: Buffer) => void,
  more: { readonly count?: ByteCount; readonly isEndADelimiter?: boolean } = {},
) {
  const stream = new PassThrough();
  const records: string[] = [];
  const overflows: Overflow[] = [];
  const read = readBoundedRecords(stream, {
    delimiter: 0x0a,
    maxRecordBytes,
    maxTotalBytes,
    ...more,
    onRecord: onRecord ?? ((record) => records.push(record.toString())),
    onOverflow: (overflow) => overflows.push(overflow),
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { stream, records, overflows, read, settle };
}

describe('readBoundedRecords', () => {
  it('gives whole records across chunks, and keeps a record that is not ended yet', async () => {
    const { stream, records, overflows, settle } = reader(16);
    stream.write('one\ntw');
    stream.write('o\n\nthr');
    await settle();
    expect(records).toEqual(['one', 'two', '']);
    stream.write('ee\n');
    await settle();
    expect(records).toEqual(['one', 'two', '', 'three']);
    expect(overflows).toEqual([]);
  });

  it('stops at a record past its bound, ended or not, and keeps nothing of it', async () => {
    const ended = reader(8);
    ended.stream.write('ok\n0123456789\nlater\n');
    await ended.settle();
    expect(ended.records).toEqual(['ok']);
    expect(ended.overflows).toEqual([{ kind: 'record', bytes: 10 }]);
    expect(ended.read.hasOverflowed).toBe(true);

    // A writer that never ends its record is stopped as soon as it passes the bound.
    const endless = reader(8);
    for (let i = 0; i < 5; i++) endless.stream.write('xxx');
    await endless.settle();
    expect(endless.records).toEqual([]);
    expect(endless.overflows).toEqual([{ kind: 'record', bytes: 9 }]);
    // What comes after is read and dropped: the writer is never blocked, nothing is kept.
    endless.stream.write('more\n');
    await endless.settle();
    expect(endless.records).toEqual([]);
    expect(endless.overflows).toHaveLength(1);
  });

  it('stops past the total bound', async () => {
    const { stream, records, overflows, settle } = reader(8, 10);
    stream.write('abc\ndef\n');
    stream.write('ghi\n');
    await settle();
    expect(records).toEqual(['abc', 'def']);
    expect(overflows).toEqual([{ kind: 'total', bytes: 12 }]);
  });

  it('turns a handler that throws into an overflow, never an uncaught error', async () => {
    const { stream, overflows, settle } = reader(8, undefined, () => {
      throw new RangeError('Invalid string length');
    });
    stream.write('a\nb\n');
    await settle();
    expect(overflows).toHaveLength(1);
    expect(overflows[0]).toMatchObject({ kind: 'fault' });
  });

  it('holds streams that share a count to one total bound', async () => {
    const count: ByteCount = { bytes: 0 };
    const stdout = reader(8, 10, undefined, { count });
    const stderr = reader(8, 10, undefined, { count });
    stdout.stream.write('abc\ndef\n');
    await stdout.settle();
    stderr.stream.write('ghi\n');
    await stderr.settle();
    expect(stdout.records).toEqual(['abc', 'def']);
    expect(stdout.overflows).toEqual([]);
    expect(stderr.records).toEqual([]);
    expect(stderr.overflows).toEqual([{ kind: 'total', bytes: 12 }]);
    expect(stdout.read.bytes).toBe(12);
  });

  it("gives what follows the last delimiter as a record at the stream's end, when asked", async () => {
    const asked = reader(8, undefined, undefined, { isEndADelimiter: true });
    asked.stream.end('one\ntwo');
    await asked.settle();
    expect(asked.records).toEqual(['one', 'two']);
    const unasked = reader(8);
    unasked.stream.end('one\ntwo');
    await unasked.settle();
    expect(unasked.records).toEqual(['one']);
  });

  it('hears a failing stream, so its error never goes unheard into the process', async () => {
    const { stream, records, overflows, settle } = reader(8);
    stream.write('a\nb');
    stream.destroy(new Error('EPIPE'));
    await settle();
    expect(records).toEqual(['a']);
    expect(overflows).toEqual([]);
  });
});
