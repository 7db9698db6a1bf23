import { createHash } from 'node:crypto';
import { type ErrorBody, type Operation, validationDetails } from '@x/types';
import { safeParse } from 'valibot';
import { ServiceError } from './service-error.js';

/** A 400 with one detail per problem. */
export function invalid(message: string, details: ErrorBody['details']): ServiceError {
  return new ServiceError('bad_request', message, details ? { details } : {});
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

/** Reads a multipart/form-data body into its parts; 415 for another type, 400 when malformed. */
export async function parseMultipart(request: Request, bytes: Uint8Array): Promise<ParsedBody> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    throw new ServiceError('unsupported_media_type', 'This operation takes multipart/form-data.');
  }
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    throw invalid('The multipart body could not be read.', [
      { code: 'invalid_input', message: 'body: malformed multipart/form-data' },
    ]);
  }
  const value: Record<string, unknown> = {};
  const journal: Record<string, unknown> = {};
  const hash = createHash('sha256');
  for (const [name, part] of form.entries()) {
    if (name in value)
      throw invalid(`Form part "${name}" is given twice.`, [
        { code: 'invalid_input', message: `body.${name}: is given twice` },
      ]);
    value[name] = part;
    if (typeof part === 'string') {
      journal[name] = part;
      hash.update(`${name}=${part}\n`);
    } else {
      journal[name] = { filename: part.name, size: part.size, type: part.type };
      hash
        .update(`${name}:`)
        .update(new Uint8Array(await part.arrayBuffer()))
        .update('\n');
    }
  }
  return { value, journal, fingerprint: hash.digest('hex') };
}

/** Reads a JSON body; 400 when the operation takes none or it is malformed, 415 for another type. */
export function parseJson(operation: Operation, request: Request, bytes: Uint8Array): ParsedBody {
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return { value: undefined, journal: undefined, fingerprint: '' };
  if (!operation.body) {
    throw invalid(`${operation.name} takes no request body.`, [
      { code: 'invalid_input', message: 'body: must be empty' },
    ]);
  }
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ServiceError('unsupported_media_type', 'The request body must be application/json.');
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
