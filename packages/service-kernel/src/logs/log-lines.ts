import { type LogEvent, MAX_LOG_LINE_BYTES } from '@x/types';

const decoder = new TextDecoder();

/** A line's bytes as text, cut back to whole characters when it was cut at `MAX_LOG_LINE_BYTES`. */
function textOf(bytes: Uint8Array, isCut: boolean): string {
  let end = bytes.byteLength;
  if (isCut) {
    // Back to the start of the character the cut fell in (a continuation byte is 10xxxxxx).
    let start = end - 1;
    while (start > 0 && ((bytes[start] as number) & 0xc0) === 0x80) start--;
    const lead = bytes[start] as number;
    const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (start + width > end) end = start;
  }
  const text = decoder.decode(bytes.subarray(0, end));
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/** One line, without its newline; `truncated` when only its first MAX_LOG_LINE_BYTES are kept. */
export type LogLine = Pick<LogEvent, 'message' | 'truncated'>;

/**
 * The lines of a stream of bytes, each at most MAX_LOG_LINE_BYTES: a longer line is given as its
 * start (`truncated`) as soon as that much has come, and the rest of it is read and dropped, so a
 * line of any length costs at most that much memory. Empty lines are skipped. A last line without
 * its newline is given when the stream ends.
 */
export async function* linesOf(
  stream: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<LogLine, void> {
  const reader = stream.getReader();
  // The stream may have ended or failed already; the reading stops either way.
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  const line = new Uint8Array(MAX_LOG_LINE_BYTES);
  let length = 0;
  let isSkipping = false;
  try {
    while (!signal.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      let from = 0;
      while (from < value.byteLength) {
        const newline = value.indexOf(0x0a, from);
        const end = newline < 0 ? value.byteLength : newline;
        if (!isSkipping) {
          const taken = Math.min(end - from, MAX_LOG_LINE_BYTES - length);
          line.set(value.subarray(from, from + taken), length);
          length += taken;
          if (taken < end - from) {
            // Past the bound: the start goes now, the rest of the line is dropped.
            yield { message: textOf(line.subarray(0, length), true), truncated: true };
            length = 0;
            isSkipping = true;
          }
        }
        if (newline < 0) break;
        if (!isSkipping && length > 0) {
          const message = textOf(line.subarray(0, length), false);
          if (message !== '') yield { message };
        }
        length = 0;
        isSkipping = false;
        from = newline + 1;
      }
    }
    if (!signal.aborted && !isSkipping && length > 0) {
      const message = textOf(line.subarray(0, length), false);
      if (message !== '') yield { message };
    }
  } finally {
    signal.removeEventListener('abort', cancel);
    // The stream may have ended or failed already; nothing more is read from it.
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
