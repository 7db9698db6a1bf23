/* Schema-free, so an upload that imports it bundles no schema. */

/** Anything a request body can be streamed from. */
export type BinaryContent = Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array>;

/** What binary content may be given as, for the message when something else is. */
export const BINARY_CONTENT_KINDS = 'a Blob, File, Uint8Array, ArrayBuffer or ReadableStream';

/** Whether a value can be sent as a raw request body. */
export function isBinaryContent(value: unknown): value is BinaryContent {
  return (
    value instanceof Blob ||
    value instanceof Uint8Array ||
    value instanceof ArrayBuffer ||
    (typeof ReadableStream !== 'undefined' && value instanceof ReadableStream)
  );
}
