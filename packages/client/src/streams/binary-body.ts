/** A binary response (a replay MP4, a screenshot PNG, an extension zip), not yet read. */
export interface BinaryBody {
  /** The bytes as they arrive; read it once. */
  readonly stream: ReadableStream<Uint8Array>;
  /** The response's media type, e.g. `image/png`. */
  readonly contentType: string;
  /** Length in bytes, when the server said it. */
  readonly contentLength: number | undefined;
  /** Reads the whole body into memory. */
  bytes(): Promise<Uint8Array>;
}

/** Wraps a binary response without reading it. */
export function binaryBody(response: Response): BinaryBody {
  const length = response.headers.get('content-length');
  const stream = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  return {
    stream,
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    contentLength: length === null ? undefined : Number(length),
    async bytes() {
      return new Uint8Array(await new Response(stream).arrayBuffer());
    },
  };
}
