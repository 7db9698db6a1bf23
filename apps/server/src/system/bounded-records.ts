import type { Readable } from 'node:stream';

/** Why a stream stopped being read. */
export type Overflow =
  | { readonly kind: 'record'; readonly bytes: number }
  | { readonly kind: 'total'; readonly bytes: number }
  | { readonly kind: 'fault'; readonly error: unknown };

export interface BoundedRecordsOptions {
  /** The byte that ends a record: `\n` for lines, NUL for DevTools messages. */
  readonly delimiter: number;
  /** Longest record, in bytes without its delimiter. */
  readonly maxRecordBytes: number;
  /** Most bytes read over the stream's life (records and what is left between them). */
  readonly maxTotalBytes?: number;
  /**
   * The count `maxTotalBytes` holds: readers given the same one share that bound (a process's
   * stdout and stderr). Each reader has its own when none is given.
   */
  readonly count?: ByteCount;
  /**
   * Whether the stream's end also ends a record: what came after the last delimiter is then
   * given as a last record (a console's last line, printed without a newline). Without it that
   * rest is dropped, as a message cut short.
   */
  readonly isEndADelimiter?: boolean;
  /**
   * Hears each whole record, in order. What it throws is caught and ends the reading as a
   * fault: a record never throws into the stream's event and from there into the process.
   */
  readonly onRecord: (record: Buffer) => void;
  /**
   * Hears, once, that the stream went past a bound (or a record's handler failed): nothing more
   * of it is read or kept. The owner kills the writer here.
   */
  readonly onOverflow: (overflow: Overflow) => void;
}

/** Bytes read by one or more readers, toward their total bound. */
export interface ByteCount {
  bytes: number;
}

/** What reading a stream of records offers its owner. */
export interface RecordReader {
  /** Whether a bound was passed (and the stream is no longer read). */
  readonly hasOverflowed: boolean;
  /** Bytes read so far (since the last `reset`). */
  readonly bytes: number;
  /** Starts the count toward `maxTotalBytes` again (a new request of a kept worker). */
  reset(): void;
}

/**
 * Reads `stream` as records ended by one byte, within bounds: a record longer than
 * `maxRecordBytes` or a stream longer than `maxTotalBytes` is not kept (what came is dropped,
 * what follows is read and dropped, `onOverflow` hears it once), so a writer that never ends a
 * record costs at most a record's bound of memory, never the process. A handler that throws ends
 * the reading the same way. This is the one way the server reads a stream that sandboxed code
 * can write to.
 */
export function readBoundedRecords(stream: Readable, options: BoundedRecordsOptions): RecordReader {
  const { delimiter, maxRecordBytes, maxTotalBytes = Number.POSITIVE_INFINITY } = options;
  const count = options.count ?? { bytes: 0 };
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let hasOverflowed = false;

  const overflow = (why: Overflow) => {
    if (hasOverflowed) return;
    hasOverflowed = true;
    partial = [];
    partialBytes = 0;
    stream.off('data', onData);
    stream.off('end', onEnd);
    // What the writer sends from now on is read and dropped, until its owner ends it.
    stream.on('data', () => undefined);
    try {
      options.onOverflow(why);
    } catch {
      // The owner's handler is not let into the process either.
    }
  };

  const give = (record: Buffer): boolean => {
    try {
      options.onRecord(record);
    } catch (error) {
      overflow({ kind: 'fault', error });
      return false;
    }
    return !hasOverflowed;
  };

  const onData = (chunk: Buffer) => {
    count.bytes += chunk.length;
    if (count.bytes > maxTotalBytes) {
      overflow({ kind: 'total', bytes: count.bytes });
      return;
    }
    let start = 0;
    for (let end = chunk.indexOf(delimiter); end !== -1; end = chunk.indexOf(delimiter, start)) {
      const recordBytes = partialBytes + end - start;
      if (recordBytes > maxRecordBytes) {
        overflow({ kind: 'record', bytes: recordBytes });
        return;
      }
      const record =
        partial.length === 0
          ? chunk.subarray(start, end)
          : Buffer.concat([...partial, chunk.subarray(start, end)]);
      partial = [];
      partialBytes = 0;
      start = end + 1;
      if (!give(record)) return;
    }
    if (start < chunk.length) {
      partialBytes += chunk.length - start;
      if (partialBytes > maxRecordBytes) {
        overflow({ kind: 'record', bytes: partialBytes });
        return;
      }
      // A copy: the chunk's memory may be a pool's, shared with what follows.
      partial.push(Buffer.from(chunk.subarray(start)));
    }
  };

  const onEnd = () => {
    if (!options.isEndADelimiter || partialBytes === 0) return;
    const record = Buffer.concat(partial);
    partial = [];
    partialBytes = 0;
    give(record);
  };

  stream.on('data', onData);
  stream.on('end', onEnd);
  // A stream that fails is read no more. Its error is heard here, so it never reaches the
  // process as an unheard event; the owner learns of it by its own 'error' or 'close'.
  stream.on('error', () => {
    stream.off('data', onData);
    stream.off('end', onEnd);
    partial = [];
    partialBytes = 0;
  });
  return {
    get hasOverflowed() {
      return hasOverflowed;
    },
    get bytes() {
      return count.bytes;
    },
    reset() {
      count.bytes = 0;
    },
  };
}

/** Words for an overflow, for a log or an error. */
export function describeOverflow(overflow: Overflow, what: string): string {
  switch (overflow.kind) {
    case 'record':
      return `${what} sent a message of over ${overflow.bytes} bytes, past its bound`;
    case 'total':
      return `${what} sent ${overflow.bytes} bytes, past its bound`;
    case 'fault':
      return `${what} sent a message that could not be read (${
        overflow.error instanceof Error ? overflow.error.message : String(overflow.error)
      })`;
  }
}
