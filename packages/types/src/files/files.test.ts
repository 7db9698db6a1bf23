import { safeParse } from 'valibot';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../common/limits.js';
import { validationDetails } from '../errors/validation-details.js';
import {
  BinaryContentSchema,
  CreateDirectoryBodySchema,
  SetFilePermissionsBodySchema,
  UploadFilesFormSchema,
  WriteFileQuerySchema,
} from './files.js';
import { uploadFilesOperation, writeFileOperation } from './operations.js';

const problems = (schema: Parameters<typeof safeParse>[0], value: unknown) => {
  const result = safeParse(schema, value);
  return result.success ? [] : validationDetails(result.issues).map((detail) => detail.message);
};

describe('file schemas', () => {
  it('take absolute paths of at most 4,096 bytes without NUL, and apply the default modes', () => {
    expect(safeParse(WriteFileQuerySchema, { path: '/home/browser/a' }).output).toEqual({
      path: '/home/browser/a',
      mode: '644',
    });
    expect(safeParse(CreateDirectoryBodySchema, { path: '/home/browser/d' }).output).toEqual({
      path: '/home/browser/d',
      mode: '755',
    });
    expect(problems(WriteFileQuerySchema, { path: 'relative' })).toEqual([
      'path: must be an absolute path (starting with /)',
    ]);
    expect(problems(WriteFileQuerySchema, { path: '/a\0b' })).toEqual([
      'path: must not contain a NUL character',
    ]);
    expect(
      problems(WriteFileQuerySchema, { path: `/${'é'.repeat(LIMITS.filePathBytes / 2)}` }),
    ).toEqual([`path: must be at most ${LIMITS.filePathBytes} bytes`]);
    expect(problems(WriteFileQuerySchema, { path: '/a', mode: '0x7' })).toEqual([
      'mode: must be 3 or 4 octal digits, like 644 or 0755',
    ]);
    expect(problems(SetFilePermissionsBodySchema, { path: '/a' })).toEqual(['mode: is required']);
  });

  it('take raw content of any binary kind, and uploads of 1 to 100 files', () => {
    for (const content of [
      new Blob(['x']),
      new Uint8Array(1),
      new ArrayBuffer(1),
      new Blob([]).stream(),
    ])
      expect(safeParse(BinaryContentSchema, { content }).success).toBe(true);
    expect(problems(BinaryContentSchema, { content: 'text' })).toEqual([
      'content: must be a Blob, File, Uint8Array, ArrayBuffer or ReadableStream',
    ]);
    const file = { dest_path: '/home/browser/a', file: new Blob(['a']) };
    expect(safeParse(UploadFilesFormSchema, { files: [file] }).success).toBe(true);
    expect(problems(UploadFilesFormSchema, { files: [] })).toEqual([
      'files: must hold at least one file',
    ]);
    expect(
      problems(UploadFilesFormSchema, {
        files: Array.from({ length: LIMITS.uploadFiles + 1 }, () => file),
      }),
    ).toEqual([`files: must hold at most ${LIMITS.uploadFiles} files`]);
    expect(problems(UploadFilesFormSchema, { files: [{ dest_path: '/a' }] })).toEqual([
      'files.0.file: is required',
    ]);
  });

  it('put the limits of a body in the catalog', () => {
    expect(writeFileOperation.body).toMatchObject({
      encoding: 'binary',
      maxBytes: LIMITS.fileBytes,
    });
    expect(uploadFilesOperation.body).toMatchObject({ maxParts: 2 * LIMITS.uploadFiles });
    expect(writeFileOperation.errorStatuses).toEqual(expect.arrayContaining([404, 409, 413, 507]));
  });
});
