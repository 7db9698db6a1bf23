import { BINARY_CONTENT_KINDS, INVALID_INPUT } from '@x/types';
import type { Options } from 'ky';
import type { BodyEncoder, EncodedBody } from '../calls/call-parts.js';
import type { ErrorDetail } from '../calls/error-body.js';
import type { Route } from '../calls/route.js';
import { buildMultipartBody, type FormPart, filePart, isUploadSource } from './upload-source.js';

/** A body as the transport sends it, reporting progress against `size` when it is known. */
function encoded(body: BodyInit, contentType: string, size: number | undefined): EncodedBody {
  return {
    contentType,
    init(callOptions) {
      // A streamed request body has to be sent half-duplex.
      const init: Options & { duplex?: 'half' } = { body };
      if (body instanceof ReadableStream) init.duplex = 'half';
      const onProgress = callOptions?.onUploadProgress;
      if (onProgress) {
        init.onUploadProgress = (progress) =>
          onProgress({
            transferredBytes: progress.transferredBytes,
            totalBytes: size ?? progress.totalBytes,
            percent: size ? progress.transferredBytes / size : progress.percent,
          });
      }
      return init;
    },
  };
}

/** Adds one value to a form: a file as a file part, anything else as text. */
function addPart(form: FormPart[], name: string, value: unknown, fallback: string): void {
  if (value === undefined) return;
  form.push(
    isUploadSource(value) ? filePart(name, value, fallback) : { name, value: String(value) },
  );
}

/**
 * A multipart form: each field a part, a list of objects as bracketed parts
 * (`files[0][dest_path]`, `files[0][file]`), a map as one part per key (`env_vars[API_KEY]`),
 * each file as a file part. Nothing of a file is read.
 */
function encodeMultipart(values: Record<string, unknown>): EncodedBody {
  const form: FormPart[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      if (isUploadSource(value)) addPart(form, key, value, key);
      else
        for (const [field, part] of Object.entries(value))
          addPart(form, `${key}[${field}]`, part, field);
      continue;
    }
    if (!Array.isArray(value)) {
      addPart(form, key, value, key);
      continue;
    }
    value.forEach((item, index) => {
      if (typeof item !== 'object' || item === null || isUploadSource(item)) {
        addPart(form, `${key}[${index}]`, item, key);
        return;
      }
      for (const [field, part] of Object.entries(item)) {
        addPart(form, `${key}[${index}][${field}]`, part, field);
      }
    });
  }
  const multipart = buildMultipartBody(form);
  return encoded(multipart.body, multipart.contentType, multipart.size);
}

/** A file's raw bytes as the body. */
function encodeBinary(
  route: Route,
  values: Record<string, unknown>,
  details: ErrorDetail[],
): EncodedBody | undefined {
  const content = values.content;
  if (!isUploadSource(content)) {
    details.push({ code: INVALID_INPUT, message: `content: must be ${BINARY_CONTENT_KINDS}` });
    return undefined;
  }
  return encoded(
    content as BodyInit,
    route.mediaType ?? 'application/octet-stream',
    content instanceof Blob ? content.size : undefined,
  );
}

/** Encodes the body of an upload: a multipart form, or a file's raw bytes. */
export const encodeUploadBody: BodyEncoder = (route, values, details) =>
  route.body === 'multipart' ? encodeMultipart(values) : encodeBinary(route, values, details);
