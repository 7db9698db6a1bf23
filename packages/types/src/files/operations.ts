import { BrowserPathSchema } from '../browsers/operations.js';
import { type AnySchema, defineOperation } from '../catalog/operation.js';
import { FORM_FRAMING_BYTES, LIMITS } from '../common/limits.js';
import {
  BinaryContentSchema,
  CreateDirectoryBodySchema,
  FileEntryListSchema,
  FileEntrySchema,
  FilePathBodySchema,
  FilePathQuerySchema,
  MoveFileBodySchema,
  SetFilePermissionsBodySchema,
  UploadFilesFormSchema,
  UploadZipFormSchema,
  WriteFileQuerySchema,
} from './files.js';

/** Statuses every file operation may answer: the browser or path missing, outside, full disk. */
const FILE_ERRORS = [404, 507] as const;

/**
 * A file operation that changes something: `PUT /browsers/{id}/fs/<path>` with a JSON body,
 * answering 200 with no body (201 when it makes something new).
 */
// @__NO_SIDE_EFFECTS__
function changeOperation<
  const TName extends string,
  const TPath extends string,
  const TSchema extends AnySchema,
  const TStatus extends 200 | 201,
>(name: TName, path: TPath, summary: string, schema: TSchema, status: TStatus) {
  return /* @__PURE__ */ defineOperation({
    name,
    clusterRoute: 'session',
    summary,
    method: 'PUT',
    path,
    pathParams: BrowserPathSchema,
    body: { encoding: 'json', schema },
    responses: { [status]: { kind: 'none' } } as { [S in TStatus]: { kind: 'none' } },
    errorStatuses: [...FILE_ERRORS, 409],
    access: 'write',
  } as const);
}

/** GET /browsers/{id}/fs/read_file: the bytes of a file on the instance, streamed. */
export const readFileOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.fs.readFile',
  clusterRoute: 'session',
  summary: 'Read a file on the browser instance.',
  method: 'GET',
  path: '/browsers/{id}/fs/read_file',
  pathParams: BrowserPathSchema,
  query: FilePathQuerySchema,
  responses: { 200: { kind: 'binary', mediaType: 'application/octet-stream' } },
  errorStatuses: FILE_ERRORS,
  access: 'contents',
});

/** PUT /browsers/{id}/fs/write_file: the request body becomes the file, whole or not at all. */
export const writeFileOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.fs.writeFile',
  clusterRoute: 'session',
  summary: 'Write a file on the browser instance (the body is its bytes).',
  method: 'PUT',
  path: '/browsers/{id}/fs/write_file',
  pathParams: BrowserPathSchema,
  query: WriteFileQuerySchema,
  body: {
    encoding: 'binary',
    mediaType: 'application/octet-stream',
    schema: BinaryContentSchema,
    maxBytes: LIMITS.fileBytes,
  },
  responses: { 201: { kind: 'none' } },
  errorStatuses: [...FILE_ERRORS, 409],
  access: 'write',
});

/** GET /browsers/{id}/fs/list_files: the entries of a directory. */
export const listFilesOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.fs.listFiles',
  clusterRoute: 'session',
  summary: 'List a directory on the browser instance.',
  method: 'GET',
  path: '/browsers/{id}/fs/list_files',
  pathParams: BrowserPathSchema,
  query: FilePathQuerySchema,
  responses: { 200: { kind: 'json', schema: FileEntryListSchema } },
  errorStatuses: [...FILE_ERRORS, 413],
  access: 'contents',
});

/** GET /browsers/{id}/fs/file_info: one file or directory. */
export const fileInfoOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.fs.fileInfo',
  clusterRoute: 'session',
  summary: 'Describe a file or directory on the browser instance.',
  method: 'GET',
  path: '/browsers/{id}/fs/file_info',
  pathParams: BrowserPathSchema,
  query: FilePathQuerySchema,
  responses: { 200: { kind: 'json', schema: FileEntrySchema } },
  errorStatuses: FILE_ERRORS,
  access: 'contents',
});

/** PUT /browsers/{id}/fs/create_directory: like `mkdir -p`. */
export const createDirectoryOperation = /* @__PURE__ */ changeOperation(
  'browsers.fs.createDirectory',
  '/browsers/{id}/fs/create_directory',
  'Create a directory (and its missing parents) on the browser instance.',
  CreateDirectoryBodySchema,
  201,
);

/** PUT /browsers/{id}/fs/delete_file: removes a file (a link is removed, not what it names). */
export const deleteFileOperation = /* @__PURE__ */ changeOperation(
  'browsers.fs.deleteFile',
  '/browsers/{id}/fs/delete_file',
  'Delete a file on the browser instance.',
  FilePathBodySchema,
  200,
);

/** PUT /browsers/{id}/fs/delete_directory: removes a directory and everything in it. */
export const deleteDirectoryOperation = /* @__PURE__ */ changeOperation(
  'browsers.fs.deleteDirectory',
  '/browsers/{id}/fs/delete_directory',
  'Delete a directory and everything in it on the browser instance.',
  FilePathBodySchema,
  200,
);

/** PUT /browsers/{id}/fs/move: renames a file or directory. */
export const moveFileOperation = /* @__PURE__ */ changeOperation(
  'browsers.fs.move',
  '/browsers/{id}/fs/move',
  'Move or rename a file or directory on the browser instance.',
  MoveFileBodySchema,
  200,
);

/** PUT /browsers/{id}/fs/set_file_permissions: chmod (and chown to the instance's own user). */
export const setFilePermissionsOperation = /* @__PURE__ */ changeOperation(
  'browsers.fs.setFilePermissions',
  '/browsers/{id}/fs/set_file_permissions',
  "Set a file's permission bits on the browser instance.",
  SetFilePermissionsBodySchema,
  200,
);

/** POST /browsers/{id}/fs/upload: many files at once, each to its own path. */
export const uploadFilesOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.fs.upload',
  clusterRoute: 'session',
  summary: 'Upload files to the browser instance (multipart, each with its dest_path).',
  method: 'POST',
  path: '/browsers/{id}/fs/upload',
  pathParams: BrowserPathSchema,
  body: {
    encoding: 'multipart',
    schema: UploadFilesFormSchema,
    maxBytes: LIMITS.fileBytes + LIMITS.uploadFiles * FORM_FRAMING_BYTES,
    maxParts: 2 * LIMITS.uploadFiles,
  },
  responses: { 201: { kind: 'none' } },
  errorStatuses: [...FILE_ERRORS, 409, 413, 415],
  access: 'write',
});

/** POST /browsers/{id}/fs/upload_zip: a zip unpacked into a directory. */
export const uploadZipOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.fs.uploadZip',
  clusterRoute: 'session',
  summary: 'Upload a zip and unpack it into a directory on the browser instance.',
  method: 'POST',
  path: '/browsers/{id}/fs/upload_zip',
  pathParams: BrowserPathSchema,
  body: {
    encoding: 'multipart',
    schema: UploadZipFormSchema,
    maxBytes: LIMITS.extensionArchiveBytes + FORM_FRAMING_BYTES,
    maxParts: 16,
  },
  responses: { 201: { kind: 'none' } },
  errorStatuses: [...FILE_ERRORS, 409, 413, 415],
  access: 'write',
});

/** GET /browsers/{id}/fs/download_dir_zip: a directory as a zip, streamed. */
export const downloadDirZipOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.fs.downloadDirZip',
  clusterRoute: 'session',
  summary: 'Download a directory of the browser instance as a zip.',
  method: 'GET',
  path: '/browsers/{id}/fs/download_dir_zip',
  pathParams: BrowserPathSchema,
  query: FilePathQuerySchema,
  responses: { 200: { kind: 'binary', mediaType: 'application/zip' } },
  errorStatuses: [...FILE_ERRORS, 413],
  access: 'contents',
});
