import { createHash } from 'node:crypto';
import { type ErrorBody, LIMITS, type Operation, validationDetails } from '@x/types';
import { safeParse } from 'valibot';
import { ServiceError } from '../service-error.js';
import { readBody } from './read-body.js';

/**
 * A 400 with one detail per problem, its message naming the first few (a caller that prints only
 * the message still learns which field is wrong).
 */
export function invalid(message: string, details: ErrorBody['details']): ServiceError {
  const problems = (details ?? []).map((detail) => detail.message).filter(Boolean);
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  const named =
    problems.length > 0
      ? `${message.replace(/\.$/, '')}: ${problems.slice(0, 3).join('; ')}${more}.`
      : message;
  // A field's name is the caller's own text: the message stays short whatever it holds.
  // (Cut before a surrogate pair's second half, never between its halves.)
  const cut = /[\uD800-\uDBFF]/.test(named.charAt(598)) ? 598 : 599;
  const text = named.length > 600 ? `${named.slice(0, cut)}…` : named;
  return new ServiceError('bad_request', text, details ? { details } : {});
}

function isJsonContentType(value: string | null): boolean {
  const type = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/** The parsed body, what the journal shows of it, and a fingerprint for idempotency keys. */
export interface ParsedBody {
  readonly value: unknown;
  readonly journal: unknown;
  readonly fingerprint: string;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The parts of a multipart body read, and what to free once the call is answered. */
export interface MultipartBody extends ParsedBody {
  /** Frees what reading kept (a reader that spools files to disk removes them). */
  dispose(): Promise<void>;
}

/** How much of a multipart body is read: its bytes, framing included, and its parts. */
export interface MultipartLimits {
  readonly bytes: number;
  readonly parts: number;
}

/**
 * Reads a multipart/form-data request body within `limits` into its parts: fields as strings,
 * files as Blobs. Throws the ServiceError to send: 415 for another media type, 413 past the
 * byte limit, 400 when malformed, past the part limit, or a part is given twice.
 */
export type MultipartReader = (request: Request, limits: MultipartLimits) => Promise<MultipartBody>;

/** The 400 for a form of more parts than its operation takes. */
export function tooManyParts(limit: number): ServiceError {
  return invalid('The form has too many parts.', [
    { code: 'invalid_input', message: `body: more than ${limit} parts` },
  ]);
}

/** Most entries a bracketed list in a form may have (`files[0]` … `files[999]`). */
const MAX_FORM_INDEX = 1000;

/**
 * Nests a form's bracketed part names into objects and lists, as the catalog's schemas read
 * them: `files[0][dest_path]` and `files[0][file]` become `{files: [{dest_path, file}]}`. Plain
 * names stay as they are. A name that cannot be nested (`a[x]` beside `a[0]`, an index past
 * 1,000, a name given as a value and as a list) is 400, naming the part.
 */
export function nestFormParts(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const nested: Record<string, unknown> = {};
  for (const [name, part] of Object.entries(value)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(name);
    if (!match) {
      if (name in nested) throw repeatedPart(name);
      nested[name] = part;
      continue;
    }
    const keys = [
      match[1] as string,
      ...[...(match[2] as string).matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string),
    ];
    let holder: Record<string, unknown> | unknown[] = nested;
    keys.forEach((key, depth) => {
      const isLast = depth === keys.length - 1;
      const nextIsIndex = !isLast && /^\d+$/.test(keys[depth + 1] as string);
      if (Array.isArray(holder)) {
        const index = /^\d+$/.test(key) ? Number(key) : Number.NaN;
        if (!(index < MAX_FORM_INDEX)) throw unnestable(name);
        if (isLast) {
          if (holder[index] !== undefined) throw repeatedPart(name);
          holder[index] = part;
          return;
        }
        holder[index] ??= nextIsIndex ? [] : {};
        holder = holder[index] as Record<string, unknown> | unknown[];
      } else {
        if (/^\d+$/.test(key) && depth > 0) throw unnestable(name);
        if (isLast) {
          if (key in holder) throw repeatedPart(name);
          holder[key] = part;
          return;
        }
        holder[key] ??= nextIsIndex ? [] : {};
        holder = holder[key] as Record<string, unknown> | unknown[];
      }
      if (typeof holder !== 'object' || holder === null || Array.isArray(holder) !== nextIsIndex)
        throw unnestable(name);
    });
  }
  return nested;
}

function unnestable(name: string): ServiceError {
  return invalid(`Form part "${name}" cannot be read.`, [
    { code: 'invalid_input', message: `body.${name}: is not a field of this form` },
  ]);
}

/**
 * A binary body as its operation's schema reads it: `{content}`, the request's bytes as they
 * arrive (never held whole). A declared length past the operation's limit is 413 at once.
 */
export function binaryBody(request: Request, body: { readonly maxBytes: number }): ParsedBody {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  // Cut rather than drained: it is larger than any drain is worth.
  if (declared > body.maxBytes) {
    // The caller hears 413 either way; a body that failed already has nothing left to cut.
    void request.body?.cancel().catch(() => undefined);
    throw bodyTooLarge();
  }
  const content = request.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  return {
    value: { content },
    journal: { content: Number.isNaN(declared) ? 'streamed' : `${declared} bytes` },
    fingerprint: '',
  };
}

/** 415 unless the request is multipart/form-data; returns its content type. */
export function assertMultipart(request: Request): string {
  const contentType = request.headers.get('content-type') ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    throw new ServiceError('unsupported_media_type', 'This operation takes multipart/form-data.');
  }
  return contentType;
}

/** The 400 for a multipart body that cannot be read. */
export function malformedMultipart(): ServiceError {
  return invalid('The multipart body could not be read.', [
    { code: 'invalid_input', message: 'body: malformed multipart/form-data' },
  ]);
}

/** The 400 for a form part given twice. */
export function repeatedPart(name: string): ServiceError {
  return invalid(`Form part "${name}" is given twice.`, [
    { code: 'invalid_input', message: `body.${name}: is given twice` },
  ]);
}

/** The 400 for a request body that stopped before its end (the caller went away). */
export function interruptedBody(): ServiceError {
  return invalid('The request body ended before it was complete.', [
    { code: 'invalid_input', message: 'body: interrupted' },
  ]);
}

/** The 413 for a body past its operation's limit. */
export function bodyTooLarge(): ServiceError {
  return new ServiceError(
    'payload_too_large',
    'The request body is larger than this operation accepts.',
  );
}

/** One part of a multipart body as the fingerprint sees it: a field's value, a file's digest. */
export type FingerprintPart =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly sha256: string };

/**
 * The fingerprint of a multipart body for idempotency keys: its parts in order, files by their
 * SHA-256, so a reader that streams files to disk computes it without holding them.
 */
export function multipartFingerprint(parts: readonly FingerprintPart[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update('value' in part ? `${part.name}=${part.value}\n` : `${part.name}:${part.sha256}\n`);
  }
  return hash.digest('hex');
}

/** Reads a multipart/form-data body held in memory into its parts; 400 when malformed. */
async function parseMultipart(contentType: string, bytes: Uint8Array): Promise<ParsedBody> {
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    throw malformedMultipart();
  }
  const value: Record<string, unknown> = {};
  const journal: Record<string, unknown> = {};
  const parts: FingerprintPart[] = [];
  for (const [name, part] of form.entries()) {
    if (name in value) throw repeatedPart(name);
    value[name] = part;
    if (typeof part === 'string') {
      journal[name] = part;
      parts.push({ name, value: part });
    } else {
      journal[name] = { filename: part.name, size: part.size, type: part.type };
      parts.push({ name, sha256: sha256(new Uint8Array(await part.arrayBuffer())) });
    }
  }
  return { value, journal, fingerprint: multipartFingerprint(parts) };
}

/** The MultipartReader that reads the whole body into memory: for a fake, or small bodies. */
export const readMultipartInMemory: MultipartReader = async (request, limits) => {
  const contentType = assertMultipart(request);
  const read = await readBody(request, limits.bytes);
  if (read.isTooLarge) throw bodyTooLarge();
  const parsed = await parseMultipart(contentType, read.bytes);
  if (Object.keys(parsed.value as object).length > limits.parts) throw tooManyParts(limits.parts);
  return { ...parsed, dispose: async () => undefined };
};

/**
 * How deeply arrays and objects nest in a JSON text, counted without parsing it (brackets inside
 * strings do not count), stopping once past `limit`.
 */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let isInString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isInString) {
      if (code === 0x5c)
        index++; // A backslash escapes the next character.
      else if (code === 0x22) isInString = false;
    } else if (code === 0x22) isInString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

/** Reads a JSON body; 400 when the operation takes none or it is malformed, 415 for another type. */
export function parseJson(operation: Operation, request: Request, bytes: Uint8Array): ParsedBody {
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return { value: undefined, journal: undefined, fingerprint: '' };
  if (!operation.body && !operation.acceptsQueryInBody) {
    throw invalid(`${operation.name} takes no request body.`, [
      { code: 'invalid_input', message: 'body: must be empty' },
    ]);
  }
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ServiceError('unsupported_media_type', 'The request body must be application/json.');
  }
  // Refused before parsing: what reads a deep value (validation, a fingerprint) would recurse.
  if (jsonDepth(text, LIMITS.jsonDepth) > LIMITS.jsonDepth) {
    throw invalid('The request body is nested too deeply.', [
      { code: 'invalid_input', message: `body: nests deeper than ${LIMITS.jsonDepth} levels` },
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid('The request body is not valid JSON.', [
      { code: 'invalid_input', message: `body: ${(error as Error).message}` },
    ]);
  }
  return { value, journal: value, fingerprint: sha256(JSON.stringify(value)) };
}

/** Checks a value against a schema, throwing a 400 that names every bad field. */
export function validate(
  schema: Parameters<typeof safeParse>[0] | undefined,
  value: unknown,
  location: string,
  what: string,
): unknown {
  if (!schema) {
    const keys = value && typeof value === 'object' ? Object.keys(value) : [];
    if (keys.length > 0) {
      throw invalid(
        `Unknown ${what}.`,
        keys.map((key) => ({
          code: 'invalid_input',
          message: `${location}.${key}: is not a known field`,
        })),
      );
    }
    return {};
  }
  const result = safeParse(schema, value);
  if (!result.success)
    throw invalid(`The request ${what} is invalid.`, validationDetails(result.issues, location));
  return result.output;
}
