/**
 * The `data` of each event of a server-sent event stream, as the WHATWG HTML standard parses
 * one ("Interpreting an event stream"), reduced to what these streams use: a line ends at CRLF,
 * LF or CR (a CRLF split across chunks is one line end); `data:` lines (one leading space after
 * the colon dropped) gather into an event, joined by LF; a blank line dispatches it; comments
 * (`:`), `event:`, `id:`, `retry:` and unknown fields carry nothing here; an event the stream
 * ends before its blank line is dropped, as the standard says. The text comes decoded (a
 * TextDecoderStream drops a byte order mark).
 *
 * `maxChars` bounds what is held for one event (its partial line and its data so far): past it
 * the stream fails instead of growing.
 */
export function eventDataStream(maxChars: number): TransformStream<string, string> {
  let data: string[] = [];
  let held = 0;
  const line = (text: string, out: TransformStreamDefaultController<string>) => {
    if (text === '') {
      if (data.length > 0) out.enqueue(data.join('\n'));
      data = [];
      held = 0;
      return;
    }
    const colon = text.indexOf(':');
    if (colon === -1 ? text !== 'data' : text.slice(0, colon) !== 'data') return;
    const value = colon === -1 ? '' : text.slice(text[colon + 1] === ' ' ? colon + 2 : colon + 1);
    data.push(value);
    held += value.length;
  };
  // The text of a line begun in an earlier chunk (never a line end in it).
  let pending = '';
  // The last chunk ended on a CR: an LF that starts this one is its other half, not a line.
  let afterCR = false;
  return new TransformStream({
    transform(chunk, out) {
      if (chunk === '') return;
      const text = afterCR && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
      afterCR = text.endsWith('\r');
      // Only the new text is scanned: a long line arriving in small chunks costs its length once.
      let start = 0;
      for (const match of text.matchAll(/\r\n|\r|\n/g)) {
        line(pending + text.slice(start, match.index), out);
        pending = '';
        start = match.index + match[0].length;
      }
      pending += text.slice(start);
      if (pending.length + held > maxChars) {
        throw new RangeError(`An event grew past ${maxChars} characters without ending.`);
      }
    },
  });
}
