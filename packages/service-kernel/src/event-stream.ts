const encoder = new TextEncoder();

/**
 * How often an event stream with nothing to say sends a comment line (`: keepalive`, or a
 * heartbeat event where the stream has one), in ms: proxies
 * and load balancers cut a connection that stays silent (nginx after 60 s by default), and the
 * comment is skipped by every SSE reader.
 */
export const SSE_HEARTBEAT_MS = 15_000;

const HEARTBEAT = encoder.encode(': keepalive\n\n');

/**
 * A text/event-stream body of JSON events, read one event at a time: nothing is produced until
 * the reader asks, so a slow reader holds the producer back. While the reader waits and the source
 * has nothing, a heartbeat comment goes out every `heartbeatMs`; a reader that stops reading gets
 * none (nothing queues up). Cancelling the body (the caller went away) aborts the signal the
 * source was given, which wakes it from any wait so it can end.
 */
export function eventStreamBody<T>(
  produce: (signal: AbortSignal) => AsyncGenerator<T, void>,
  options: {
    /** Milliseconds of silence before a heartbeat comment. */
    readonly heartbeatMs?: number;
    /** The `id:` of an event, which a reader resumes after (`Last-Event-ID`). */
    readonly idOf?: (event: T) => string;
    /**
     * The event a heartbeat sends, for streams whose readers expect one as JSON (the peer SDK's
     * `sse_heartbeat`); without it, a comment line.
     */
    readonly heartbeat?: () => T;
  } = {},
): ReadableStream<Uint8Array> {
  const { heartbeatMs = SSE_HEARTBEAT_MS, idOf, heartbeat } = options;
  const controller = new AbortController();
  const source = produce(controller.signal);
  // The source's next event, asked once and kept across heartbeats.
  let pending: Promise<IteratorResult<T, void>> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(stream) {
        pending ??= source.next();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const beat = new Promise<'beat'>((resolve) => {
          timer = setTimeout(() => resolve('beat'), heartbeatMs);
        });
        const next = await Promise.race([pending, beat]);
        clearTimeout(timer);
        // A source woken by cancel ends after the stream did: there is nothing left to close.
        if (controller.signal.aborted) return;
        if (next === 'beat') {
          stream.enqueue(
            heartbeat ? encoder.encode(`data: ${JSON.stringify(heartbeat())}\n\n`) : HEARTBEAT,
          );
          return;
        }
        pending = undefined;
        if (next.done) stream.close();
        else {
          const id = idOf ? `id: ${idOf(next.value)}\n` : '';
          stream.enqueue(encoder.encode(`${id}data: ${JSON.stringify(next.value)}\n\n`));
        }
      },
      async cancel() {
        controller.abort();
        await source.return();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Waits until `arm`'s wake-up is called or the signal aborts. */
export function wakeOrAbort(arm: (wake: () => void) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    arm(done);
  });
}
