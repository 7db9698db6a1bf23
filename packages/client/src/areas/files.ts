/**
 * The `files` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */

import { defineCall } from '../calls/define-call.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type { BinaryBody } from '../streams/binary-body.js';
import { readStreamBody } from '../streams/read-body.js';
import { encodeUploadBody } from '../uploads/encode-body.js';
import type { UploadSource } from '../uploads/upload-source.js';

// Records

export interface FileEntry {
  /** the entry's name */
  name: string;
  /** the entry's absolute path */
  path: string;
  /** whether it is a directory */
  is_dir: boolean;
  /** size in bytes */
  size_bytes: number;
  /** permissions, octal (644) */
  mode: string;
  /** last modified (ISO 8601 UTC) */
  mod_time: string;
}

export interface UploadFileInput {
  /** absolute path to write the file at */
  dest_path: string;
  /** the file */
  file: UploadSource;
}

// Inputs and answers

/** What `browsers.fs.createDirectory` takes: its path parameters, body fields, side by side. */
export interface CreateDirectoryInput {
  /** browser session id */
  id: string;
  /** absolute path of the directory; missing parents are made */
  path: string;
  /** permissions, 3 or 4 octal digits, default 755 */
  mode?: string | undefined;
}

/** What `browsers.fs.deleteDirectory` takes: its path parameters, body fields, side by side. */
export interface DeleteDirectoryInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.deleteFile` takes: its path parameters, body fields, side by side. */
export interface DeleteFileInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.downloadDirZip` takes: its path parameters, query parameters, side by side. */
export interface DownloadDirZipInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.fileInfo` takes: its path parameters, query parameters, side by side. */
export interface FileInfoInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.listFiles` takes: its path parameters, query parameters, side by side. */
export interface ListFilesInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.move` takes: its path parameters, body fields, side by side. */
export interface MoveFileInput {
  /** browser session id */
  id: string;
  /** absolute path to move from */
  src_path: string;
  /** absolute path to move to */
  dest_path: string;
}

/** What `browsers.fs.readFile` takes: its path parameters, query parameters, side by side. */
export interface ReadFileInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.setFilePermissions` takes: its path parameters, body fields, side by side. */
export interface SetFilePermissionsInput {
  /** browser session id */
  id: string;
  /** absolute path of the file or directory */
  path: string;
  /** permissions, 3 or 4 octal digits (755) */
  mode: string;
  /** user to own it */
  owner?: string | undefined;
  /** group to own it */
  group?: string | undefined;
}

/** What `browsers.fs.upload` takes: its path parameters, form fields, side by side. */
export interface UploadFilesInput {
  /** browser session id */
  id: string;
  /** files, each with its destination, at most 100 */
  files: UploadFileInput[];
}

/** What `browsers.fs.uploadZip` takes: its path parameters, form fields, side by side. */
export interface UploadZipInput {
  /** browser session id */
  id: string;
  /** absolute path of the directory to unpack into */
  dest_path: string;
  /** the zip archive */
  zip_file: UploadSource;
}

/** What `browsers.fs.writeFile` takes: its path parameters, query parameters, form fields, side by side. */
export interface WriteFileInput {
  /** browser session id */
  id: string;
  /** absolute path of the file, ≤ 4096 bytes */
  path: string;
  /** permissions, 3 or 4 octal digits, default 644 */
  mode?: string | undefined;
  /** the file's bytes, streamed as sent */
  content: UploadSource;
}

// Functions

// browsers.fs

/**
 * Create a directory (and its missing parents) on the browser instance.
 *
 * `PUT /browsers/{id}/fs/create_directory`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
 * `browsers.fs.createDirectory`
 */
export const createDirectory: (
  core: Core,
  input: CreateDirectoryInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<CreateDirectoryInput, undefined>({
  name: 'browsers.fs.createDirectory',
  method: 'PUT',
  path: '/browsers/{id}/fs/create_directory',
  body: 'json',
  responses: { 201: 'none' },
  write: true,
});

/**
 * Delete a directory and everything in it on the browser instance.
 *
 * `PUT /browsers/{id}/fs/delete_directory`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
 * `browsers.fs.deleteDirectory`
 */
export const deleteDirectory: (
  core: Core,
  input: DeleteDirectoryInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteDirectoryInput, undefined>({
  name: 'browsers.fs.deleteDirectory',
  method: 'PUT',
  path: '/browsers/{id}/fs/delete_directory',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Delete a file on the browser instance.
 *
 * `PUT /browsers/{id}/fs/delete_file`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
 * `browsers.fs.deleteFile`
 */
export const deleteFile: (
  core: Core,
  input: DeleteFileInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteFileInput, undefined>({
  name: 'browsers.fs.deleteFile',
  method: 'PUT',
  path: '/browsers/{id}/fs/delete_file',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Download a directory of the browser instance as a zip.
 *
 * `GET /browsers/{id}/fs/download_dir_zip`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 429, 500, 503, 507.
 * `browsers.fs.downloadDirZip`
 */
export const downloadDirZip: (
  core: Core,
  input: DownloadDirZipInput,
  options?: CallOptions,
) => CallPromise<BinaryBody> = /* @__PURE__ */ defineCall<DownloadDirZipInput, BinaryBody>(
  {
    name: 'browsers.fs.downloadDirZip',
    method: 'GET',
    path: '/browsers/{id}/fs/download_dir_zip',
    query: ['path'],
    responses: { 200: 'binary' },
  },
  { readBody: readStreamBody },
);

/**
 * Describe a file or directory on the browser instance.
 *
 * `GET /browsers/{id}/fs/file_info`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503, 507.
 * `browsers.fs.fileInfo`
 */
export const fileInfo: (
  core: Core,
  input: FileInfoInput,
  options?: CallOptions,
) => CallPromise<FileEntry> = /* @__PURE__ */ defineCall<FileInfoInput, FileEntry>({
  name: 'browsers.fs.fileInfo',
  method: 'GET',
  path: '/browsers/{id}/fs/file_info',
  query: ['path'],
  responses: { 200: 'json' },
});

/**
 * List a directory on the browser instance.
 *
 * `GET /browsers/{id}/fs/list_files`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 429, 500, 503, 507.
 * `browsers.fs.listFiles`
 */
export const listFiles: (
  core: Core,
  input: ListFilesInput,
  options?: CallOptions,
) => CallPromise<FileEntry[]> = /* @__PURE__ */ defineCall<ListFilesInput, FileEntry[]>({
  name: 'browsers.fs.listFiles',
  method: 'GET',
  path: '/browsers/{id}/fs/list_files',
  query: ['path'],
  responses: { 200: 'json' },
});

/**
 * Move or rename a file or directory on the browser instance.
 *
 * `PUT /browsers/{id}/fs/move`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
 * `browsers.fs.move`
 */
export const moveFile: (
  core: Core,
  input: MoveFileInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<MoveFileInput, undefined>({
  name: 'browsers.fs.move',
  method: 'PUT',
  path: '/browsers/{id}/fs/move',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Read a file on the browser instance.
 *
 * `GET /browsers/{id}/fs/read_file`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503, 507.
 * `browsers.fs.readFile`
 */
export const readFile: (
  core: Core,
  input: ReadFileInput,
  options?: CallOptions,
) => CallPromise<BinaryBody> = /* @__PURE__ */ defineCall<ReadFileInput, BinaryBody>(
  {
    name: 'browsers.fs.readFile',
    method: 'GET',
    path: '/browsers/{id}/fs/read_file',
    query: ['path'],
    responses: { 200: 'binary' },
  },
  { readBody: readStreamBody },
);

/**
 * Set a file's permission bits on the browser instance.
 *
 * `PUT /browsers/{id}/fs/set_file_permissions`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
 * `browsers.fs.setFilePermissions`
 */
export const setFilePermissions: (
  core: Core,
  input: SetFilePermissionsInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<SetFilePermissionsInput, undefined>({
  name: 'browsers.fs.setFilePermissions',
  method: 'PUT',
  path: '/browsers/{id}/fs/set_file_permissions',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Upload files to the browser instance (multipart, each with its dest_path).
 *
 * `POST /browsers/{id}/fs/upload`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503, 507.
 * `browsers.fs.upload`
 */
export const uploadFiles: (
  core: Core,
  input: UploadFilesInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<UploadFilesInput, undefined>(
  {
    name: 'browsers.fs.upload',
    method: 'POST',
    path: '/browsers/{id}/fs/upload',
    body: 'multipart',
    responses: { 201: 'none' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);

/**
 * Upload a zip and unpack it into a directory on the browser instance.
 *
 * `POST /browsers/{id}/fs/upload_zip`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503, 507.
 * `browsers.fs.uploadZip`
 */
export const uploadZip: (
  core: Core,
  input: UploadZipInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<UploadZipInput, undefined>(
  {
    name: 'browsers.fs.uploadZip',
    method: 'POST',
    path: '/browsers/{id}/fs/upload_zip',
    body: 'multipart',
    responses: { 201: 'none' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);

/**
 * Write a file on the browser instance (the body is its bytes).
 *
 * `PUT /browsers/{id}/fs/write_file`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 429, 500, 503, 507.
 * `browsers.fs.writeFile`
 */
export const writeFile: (
  core: Core,
  input: WriteFileInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<WriteFileInput, undefined>(
  {
    name: 'browsers.fs.writeFile',
    method: 'PUT',
    path: '/browsers/{id}/fs/write_file',
    query: ['path', 'mode'],
    body: 'binary',
    mediaType: 'application/octet-stream',
    responses: { 201: 'none' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);
