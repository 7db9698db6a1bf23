/**
 * The `extensions` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */

import { defineCall } from '../calls/define-call.js';
import type { PagePromise } from '../calls/list-page.js';
import { defineListCall } from '../calls/list-page.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type { BinaryBody } from '../streams/binary-body.js';
import { readStreamBody } from '../streams/read-body.js';
import { encodeUploadBody } from '../uploads/encode-body.js';
import type { UploadSource } from '../uploads/upload-source.js';

// Records

export interface LoadedExtensions {
  /** the extensions loaded, in the order sent */
  extensions: {
    /** its folder name, as sent */
    name: string;
    /** the id Chromium gave it (its chrome-extension:// host) */
    extension_id: string;
  }[];
}

export interface Extension {
  /** the extension's id */
  id: string;
  /** when it was uploaded (ISO 8601 UTC) */
  created_at: string;
  /** size of the archive as uploaded, in bytes */
  size_bytes: number;
  /** the extension's unique name */
  name?: string | undefined;
  /** SHA-256 of the archive exactly as uploaded, lowercase hex */
  checksum?: string | undefined;
  /** when a browser last loaded it (ISO 8601 UTC) */
  last_used_at?: string | undefined;
}

// Inputs and answers

/** What `browsers.loadExtensions` takes: its path parameters, form fields, side by side. */
export interface LoadExtensionsInput {
  /** browser session id */
  id: string;
  /** extensions to load, each with its folder name, at most 20 */
  extensions: {
    /** folder name of the extension, [A-Za-z0-9._-], 1–255 characters */
    name: string;
    /** zip of an unpacked extension, manifest.json at its root, ≤ 52428800 bytes */
    zip_file: UploadSource;
  }[];
}

/** What `extensions.delete` takes: its path parameters. */
export interface DeleteExtensionInput {
  /** extension id or name */
  id_or_name: string;
}

/** What `extensions.download` takes: its path parameters. */
export interface DownloadExtensionInput {
  /** extension id or name */
  id_or_name: string;
}

/** What `extensions.list` takes: its query parameters. */
export interface ListExtensionsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only the record with exactly this name */
  name?: string | undefined;
  /** only records whose id or name contains this, any case, ≤ 255 characters */
  query?: string | undefined;
}

/** What `extensions.metadata` takes: its path parameters. */
export interface GetExtensionMetadataInput {
  /** extension id or name */
  id_or_name: string;
}

/** What `extensions.upload` takes: its form fields. */
export interface UploadExtensionInput {
  /** zip of an unpacked extension, manifest.json at its root, ≤ 52428800 bytes */
  file: UploadSource;
  /** unique name to refer to it by, [A-Za-z0-9._-], 1–255 characters */
  name?: string | undefined;
}

// Functions

// browsers

/**
 * Load unpacked extensions (zips) into a running browser.
 *
 * `POST /browsers/{id}/extensions`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.loadExtensions`
 */
export const loadExtensions: (
  core: Core,
  input: LoadExtensionsInput,
  options?: CallOptions,
) => CallPromise<LoadedExtensions> = /* @__PURE__ */ defineCall<
  LoadExtensionsInput,
  LoadedExtensions
>(
  {
    name: 'browsers.loadExtensions',
    method: 'POST',
    path: '/browsers/{id}/extensions',
    body: 'multipart',
    responses: { 200: 'json' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);

// extensions

/**
 * Delete an extension.
 *
 * `DELETE /extensions/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `extensions.delete`
 */
export const deleteExtension: (
  core: Core,
  input: DeleteExtensionInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteExtensionInput, undefined>({
  name: 'extensions.delete',
  method: 'DELETE',
  path: '/extensions/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Download an extension archive (zip).
 *
 * `GET /extensions/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `extensions.download`
 */
export const downloadExtension: (
  core: Core,
  input: DownloadExtensionInput,
  options?: CallOptions,
) => CallPromise<BinaryBody> = /* @__PURE__ */ defineCall<DownloadExtensionInput, BinaryBody>(
  {
    name: 'extensions.download',
    method: 'GET',
    path: '/extensions/{id_or_name}',
    responses: { 200: 'binary' },
  },
  { readBody: readStreamBody },
);

/**
 * List the uploaded extensions.
 *
 * `GET /extensions`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `extensions.list`
 */
export const listExtensions: (
  core: Core,
  input?: ListExtensionsInput,
  options?: CallOptions,
) => PagePromise<Extension> = /* @__PURE__ */ defineListCall<ListExtensionsInput, Extension>({
  name: 'extensions.list',
  method: 'GET',
  path: '/extensions',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get an extension's record (size, SHA-256, name) without downloading it.
 *
 * `GET /extensions/{id_or_name}/metadata`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `extensions.metadata`
 */
export const getExtensionMetadata: (
  core: Core,
  input: GetExtensionMetadataInput,
  options?: CallOptions,
) => CallPromise<Extension> = /* @__PURE__ */ defineCall<GetExtensionMetadataInput, Extension>({
  name: 'extensions.metadata',
  method: 'GET',
  path: '/extensions/{id_or_name}/metadata',
  responses: { 200: 'json' },
});

/**
 * Upload a browser extension (zip with manifest.json at its root).
 *
 * `POST /extensions` (§4.4 of the interface): a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `extensions.upload`
 */
export const uploadExtension: (
  core: Core,
  input: UploadExtensionInput,
  options?: CallOptions,
) => CallPromise<Extension> = /* @__PURE__ */ defineCall<UploadExtensionInput, Extension>(
  {
    name: 'extensions.upload',
    method: 'POST',
    path: '/extensions',
    body: 'multipart',
    responses: { 201: 'json' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);
