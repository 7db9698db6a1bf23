const encoder = new TextEncoder();

/**
 * A text/event-stream body of JSON events, read one event at a time: nothing is produced until
 * the reader asks, so a slow reader holds the producer back. Cancelling the body (the caller went
 * away) ends the source.
 */
export function eventStreamBody(source: AsyncGenerator<unknown, void>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await source.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
      },
      async cancel() {
        await source.return();
      },
    },
    { highWaterMark: 0 },
  );
}
