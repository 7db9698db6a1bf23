/** A request body read up to a limit. */
export type ReadBody =
  | { readonly bytes: Uint8Array; readonly isTooLarge: false }
  | { readonly isTooLarge: true };

/** Most bytes of a refused body read and thrown away, so the caller can still read the 413. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/**
 * Reads and drops a body no step read (a call refused before its binary body was needed), so the
 * caller hears the answer on a connection still in step; past DRAIN_LIMIT it is cut.
 */
export async function dropUnreadBody(request: Request): Promise<void> {
  if (!request.body || request.body.locked) return;
  // A body that fails while it is drained (the caller went away) has no one left to answer.
  await drainBody(request.body.getReader(), 0).catch(() => undefined);
}

/** Reads and discards the rest of a body, up to DRAIN_LIMIT; past that the connection is cut. */
export async function drainBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  alreadyRead: number,
): Promise<void> {
  let drained = alreadyRead;
  while (drained <= DRAIN_LIMIT) {
    const { done, value } = await reader.read();
    if (done) return;
    drained += value.byteLength;
  }
  // Cutting the connection is the point; a body that already failed has nothing left to cut.
  await reader.cancel().catch(() => undefined);
}

/**
 * Reads a request body chunk by chunk into `write` (awaited, so a slow consumer slows the
 * reading), up to `limit` bytes: the rest of a body too large is read and thrown away, never
 * held, so the caller gets its 413 instead of a cut connection. Rejects if the body stops
 * arriving (the caller went away).
 */
export async function streamBody(
  request: Request,
  limit: number,
  write: (chunk: Uint8Array) => void | Promise<void>,
): Promise<{ readonly isTooLarge: boolean }> {
  if (!request.body) return { isTooLarge: false };
  const reader = request.body.getReader();
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await drainBody(reader, 0);
    return { isTooLarge: true };
  }
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) return { isTooLarge: false };
    size += value.byteLength;
    if (size > limit) {
      await drainBody(reader, size);
      return { isTooLarge: true };
    }
    await write(value);
  }
}

/** Reads a request body into memory, keeping at most `limit` bytes (see streamBody). */
export async function readBody(request: Request, limit: number): Promise<ReadBody> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const { isTooLarge } = await streamBody(request, limit, (chunk) => {
    chunks.push(chunk);
    size += chunk.byteLength;
  });
  if (isTooLarge) return { isTooLarge };
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, isTooLarge };
}
