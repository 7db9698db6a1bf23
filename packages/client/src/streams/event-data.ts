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
  let pending = '';
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
  return new TransformStream({
    transform(chunk, out) {
      pending += chunk;
      let start = 0;
      for (const match of pending.matchAll(/\r\n|\r|\n/g)) {
        // A CR that ends the text so far may be the first half of a CRLF: wait for the next.
        if (match[0] === '\r' && match.index === pending.length - 1) break;
        line(pending.slice(start, match.index), out);
        start = match.index + match[0].length;
      }
      pending = pending.slice(start);
      if (pending.length + held > maxChars) {
        throw new RangeError(`An event grew past ${maxChars} characters without ending.`);
      }
    },
    flush(out) {
      // The stream ended on a CR: it was a line end after all.
      if (pending.endsWith('\r')) line(pending.slice(0, -1), out);
    },
  });
}
