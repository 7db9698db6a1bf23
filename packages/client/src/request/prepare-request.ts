import {
  buildPath,
  type ErrorDetail,
  INVALID_INPUT,
  type Operation,
  operationFields,
  schemaEntries,
  validationDetails,
} from '@x/types';
import { safeParse } from 'valibot';
import { InputValidationError } from '../errors/validation-errors.js';
import {
  type FormPart,
  filePart,
  isUploadSource,
  type UploadSource,
} from '../uploads/upload-source.js';

/** A call's input, checked and split into what goes in the path, the query and the body. */
export interface PreparedRequest {
  /** Path and query string, relative to the base URL. */
  readonly pathAndQuery: string;
  readonly json?: unknown;
  readonly form?: readonly FormPart[];
  /** A raw body, streamed as it is (a file's bytes). */
  readonly binary?: { readonly content: UploadSource; readonly mediaType: string };
  /** How long the server may legitimately take, from the catalog. */
  readonly serverTimeMs: number;
}

function pick(input: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (input[key] !== undefined) picked[key] = input[key];
  return picked;
}

/** Whether a body schema's field expects a file. */
function isFileField(operation: Operation, key: string): boolean {
  return schemaEntries(operation.body?.schema)[key]?.type === 'blob';
}

function queryString(values: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

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

/**
 * Checks a call's input against the operation's schemas and splits it. Every problem is reported
 * at once, each naming its field; nothing reaches the network unless all of it is valid.
 */
export function prepareRequest(operation: Operation, rawInput: unknown): PreparedRequest {
  if (rawInput !== undefined && (typeof rawInput !== 'object' || rawInput === null)) {
    throw new InputValidationError(operation.name, [
      { code: INVALID_INPUT, message: 'input must be an object' },
    ]);
  }
  const input = (rawInput ?? {}) as Record<string, unknown>;
  const fields = operationFields(operation);
  const details: ErrorDetail[] = [];
  const known = new Set([...fields.path, ...fields.query, ...fields.body]);
  for (const key of Object.keys(input)) {
    if (!known.has(key))
      details.push({ code: INVALID_INPUT, message: `${key}: is not a known field` });
  }

  const pathValues = pick(input, fields.path);
  if (operation.pathParams) {
    const result = safeParse(operation.pathParams, pathValues);
    if (!result.success) details.push(...validationDetails(result.issues));
  }
  const queryValues = pick(input, fields.query);
  if (operation.query) {
    const result = safeParse(operation.query, queryValues);
    if (!result.success) details.push(...validationDetails(result.issues));
  }

  let json: unknown;
  let form: FormPart[] | undefined;
  let binary: PreparedRequest['binary'];
  let bodyOutput: unknown;
  const bodyValues = pick(input, fields.body);
  if (operation.body?.encoding === 'json') {
    // A body that may be absent is left out when no field is given; the server applies its
    // defaults. Otherwise the fields are sent as an object, even an empty one.
    const absent = safeParse(operation.body.schema, undefined);
    const isLeftOut = Object.keys(bodyValues).length === 0 && absent.success;
    const result = isLeftOut ? absent : safeParse(operation.body.schema, bodyValues);
    if (result.success) bodyOutput = result.output;
    else details.push(...validationDetails(result.issues));
    json = isLeftOut ? undefined : bodyValues;
  } else if (operation.body?.encoding === 'binary') {
    const result = safeParse(operation.body.schema, bodyValues);
    if (result.success) {
      binary = {
        content: bodyValues.content as UploadSource,
        mediaType: operation.body.mediaType,
      };
    } else details.push(...validationDetails(result.issues));
  } else if (operation.body?.encoding === 'multipart') {
    // Files are checked for their kind here; the schema sees a stand-in, so no stream is read.
    const stand: Record<string, unknown> = {};
    form = [];
    for (const [key, value] of Object.entries(bodyValues)) {
      if (Array.isArray(value)) {
        // A list of objects travels as bracketed parts: files[0][dest_path], files[0][file].
        stand[key] = value.map((item, index) => nestedParts(`${key}[${index}]`, item, form ?? []));
      } else if (isFileField(operation, key)) {
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
    const result = safeParse(operation.body.schema, stand);
    if (!result.success) details.push(...validationDetails(result.issues));
  }

  if (details.length > 0) throw new InputValidationError(operation.name, details);

  const serverTime = operation.serverTimeMs as ((body: unknown) => number) | undefined;
  return {
    pathAndQuery:
      buildPath(operation, pathValues as Record<string, string>) + queryString(queryValues),
    ...(json === undefined ? {} : { json }),
    ...(form === undefined ? {} : { form }),
    ...(binary === undefined ? {} : { binary }),
    serverTimeMs: serverTime && bodyOutput !== undefined ? serverTime(bodyOutput) : 0,
  };
}
