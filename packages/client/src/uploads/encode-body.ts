import {
  type ErrorDetail,
  INVALID_INPUT,
  type Operation,
  schemaEntries,
  validationDetails,
} from '@x/types';
import { safeParse } from 'valibot';
import type { BodyEncoder, EncodedBody } from '../request/prepare-request.js';
import {
  buildMultipartBody,
  type FormPart,
  filePart,
  isUploadSource,
  type UploadSource,
} from './upload-source.js';

/**
 * Adds an object of a list to a form as bracketed parts (`files[0][file]`), files as file parts;
 * gives what the schema checks in its place (a stand-in Blob for each file, so nothing is read).
 */
function nestedParts(prefix: string, item: unknown, form: FormPart[]): unknown {
  if (typeof item !== 'object' || item === null || isUploadSource(item)) return item;
  const stand: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    const name = `${prefix}[${key}]`;
    if (value === undefined) continue;
    if (isUploadSource(value)) {
      form.push(filePart(name, value, key));
      stand[key] = new Blob([]);
    } else {
      form.push({ name, value: String(value) });
      stand[key] = value;
    }
  }
  return stand;
}

function encodeMultipart(
  operation: Operation,
  values: Record<string, unknown>,
  details: ErrorDetail[],
): EncodedBody | undefined {
  const schema = operation.body?.schema;
  const entries = schemaEntries(schema);
  // Files are checked for their kind here; the schema sees a stand-in, so no stream is read.
  const stand: Record<string, unknown> = {};
  const form: FormPart[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (Array.isArray(value)) {
      // A list of objects travels as bracketed parts: files[0][dest_path], files[0][file].
      stand[key] = value.map((item, index) => nestedParts(`${key}[${index}]`, item, form));
    } else if (entries[key]?.type === 'blob') {
      if (!isUploadSource(value)) {
        details.push({
          code: INVALID_INPUT,
          message: `${key}: must be a Blob, File, Uint8Array, ArrayBuffer or ReadableStream`,
        });
        continue;
      }
      stand[key] = new Blob([]);
      form.push(filePart(key, value, key));
    } else {
      stand[key] = value;
      form.push({ name: key, value: String(value) });
    }
  }
  const result = schema ? safeParse(schema, stand) : undefined;
  if (result && !result.success) details.push(...validationDetails(result.issues));
  if (details.length > 0) return undefined;
  const multipart = buildMultipartBody(form);
  // An upload is streamed exactly once: to retry, the transport would tee the body up front,
  // which holds the whole archive in memory. Callers retry an upload with its idempotency key.
  return {
    body: multipart.body,
    contentType: multipart.contentType,
    size: multipart.size,
    isReplayable: false,
  };
}

function encodeBinary(
  operation: Operation,
  values: Record<string, unknown>,
  details: ErrorDetail[],
): EncodedBody | undefined {
  const body = operation.body;
  if (body?.encoding !== 'binary') return undefined;
  const result = safeParse(body.schema, values);
  if (!result.success) {
    details.push(...validationDetails(result.issues));
    return undefined;
  }
  const content = values.content as UploadSource;
  // Streamed once, as an upload is: never held whole to be sent again.
  return {
    body: content as BodyInit,
    contentType: body.mediaType,
    size: content instanceof Blob ? content.size : undefined,
    isReplayable: false,
  };
}

/** Encodes the body of an upload: a multipart form, or a file's raw bytes. */
export const encodeUploadBody: BodyEncoder = (operation, values, details) =>
  operation.body?.encoding === 'multipart'
    ? encodeMultipart(operation, values, details)
    : encodeBinary(operation, values, details);
