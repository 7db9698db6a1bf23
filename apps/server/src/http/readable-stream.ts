import type { Readable } from 'node:stream';

/**
 * A Node stream as a web stream that reads only as fast as it is read: one chunk per pull. (Node's
 * own `Readable.toWeb` counts its queue in chunks against a limit meant in bytes, so it buffers
 * thousands of chunks ahead of a slow reader: a large upload would sit in memory.) Cancelling it
 * destroys the Node stream.
 */
export function streamOfReadable(readable: Readable): ReadableStream<Uint8Array> {
  const chunks = readable[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else if (typeof value === 'string') controller.enqueue(new TextEncoder().encode(value));
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The request with its body read from the socket as the handler reads it (see streamOfReadable),
 * so an upload of any size passes through in a few chunks. Requests without a body are as they are.
 */
export function withStreamedBody(request: Request, incoming: Readable | undefined): Request {
  if (!incoming || request.method === 'GET' || request.method === 'HEAD') return request;
  // Read already (a node of a cluster looked inside to place it): the request holds it.
  if ((incoming as Readable & { rawBody?: unknown }).rawBody instanceof Buffer) return request;
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: streamOfReadable(incoming),
    signal: request.signal,
    duplex: 'half',
  } as RequestInit);
}
