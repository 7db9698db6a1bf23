import { isBinaryContent } from '@x/types';

/** What a file part of an upload (or a raw body) may be given as: the catalog's binary content. */
export type UploadSource = Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array>;

/** Whether a value can be uploaded as a file part. */
export const isUploadSource = isBinaryContent;

/** The file part of a form for `value`, named as a File names itself (else `fallback`). */
export function filePart(name: string, value: UploadSource, fallback: string): FormPart {
  const filename = typeof File !== 'undefined' && value instanceof File ? value.name : fallback;
  return { name, file: value, filename };
}

/** A multipart body ready to send. */
export interface MultipartBody {
  body: Blob | ReadableStream<Uint8Array>;
  contentType: string;
  /** Bytes in all, when every part's size is known. */
  size: number | undefined;
}

const encoder = /* @__PURE__ */ new TextEncoder();

function escapeQuoted(value: string): string {
  return value.replace(/[\r\n"]/g, (character) => encodeURIComponent(character));
}

function partHeader(boundary: string, name: string, filename?: string, type?: string): string {
  const disposition = `form-data; name="${escapeQuoted(name)}"${
    filename === undefined ? '' : `; filename="${escapeQuoted(filename)}"`
  }`;
  const contentType =
    filename === undefined ? '' : `\r\nContent-Type: ${type || 'application/octet-stream'}`;
  return `--${boundary}\r\nContent-Disposition: ${disposition}${contentType}\r\n\r\n`;
}

/** One part of a form: a text field, or a file. */
export type FormPart =
  | { name: string; value: string }
  | { name: string; file: UploadSource; filename: string };

/**
 * Builds a multipart/form-data body without reading the files: Blob parts stay lazy (a Blob from
 * a path is read from disk as it is sent), a stream part is piped through as it arrives.
 */
export function buildMultipartBody(parts: readonly FormPart[]): MultipartBody {
  const boundary = `----xb-${crypto.randomUUID()}`;
  const contentType = `multipart/form-data; boundary=${boundary}`;
  const pieces: (string | Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array>)[] = [];
  for (const part of parts) {
    if ('value' in part) {
      pieces.push(`${partHeader(boundary, part.name)}${part.value}\r\n`);
      continue;
    }
    const type = part.file instanceof Blob ? part.file.type : '';
    pieces.push(partHeader(boundary, part.name, part.filename, type), part.file, '\r\n');
  }
  pieces.push(`--${boundary}--\r\n`);

  const streams = pieces.filter((piece) => piece instanceof ReadableStream);
  if (streams.length === 0) {
    const blob = new Blob(pieces as BlobPart[], { type: contentType });
    return { body: blob, contentType, size: blob.size };
  }
  return { body: concatenate(pieces), contentType, size: undefined };
}

/** Joins strings, Blobs, bytes and streams into one stream, pulling each only when needed. */
function concatenate(
  pieces: readonly (string | Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array>)[],
): ReadableStream<Uint8Array> {
  const queue = [...pieces];
  let current: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (true) {
        if (current) {
          const { done, value } = await current.read();
          if (!done) {
            controller.enqueue(value);
            return;
          }
          current = undefined;
        }
        const piece = queue.shift();
        if (piece === undefined) {
          controller.close();
          return;
        }
        if (typeof piece === 'string') controller.enqueue(encoder.encode(piece));
        else if (piece instanceof Uint8Array) controller.enqueue(piece);
        else if (piece instanceof ArrayBuffer) controller.enqueue(new Uint8Array(piece));
        else current = (piece instanceof Blob ? piece.stream() : piece).getReader();
        if (!current) return;
      }
    },
    async cancel(reason) {
      await current?.cancel(reason);
      for (const piece of queue) if (piece instanceof ReadableStream) await piece.cancel(reason);
    },
  });
}
