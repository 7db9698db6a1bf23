const encoder = new TextEncoder();

/**
 * A text/event-stream body of JSON events, read one event at a time: nothing is produced until
 * the reader asks, so a slow reader holds the producer back. Cancelling the body (the caller went
 * away) aborts the signal the source was given, which wakes it from any wait so it can end.
 */
export function eventStreamBody(
  produce: (signal: AbortSignal) => AsyncGenerator<unknown, void>,
): ReadableStream<Uint8Array> {
  const controller = new AbortController();
  const source = produce(controller.signal);
  return new ReadableStream<Uint8Array>(
    {
      async pull(stream) {
        const next = await source.next();
        // A source woken by cancel ends after the stream did: there is nothing left to close.
        if (controller.signal.aborted) return;
        if (next.done) stream.close();
        else stream.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
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
