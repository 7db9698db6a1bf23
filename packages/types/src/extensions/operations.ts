import { BrowserPathSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { described } from '../common/describe.js';
import { FORM_FRAMING_BYTES, LIMITS } from '../common/limits.js';
import { NamedListQuerySchema } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { IdOrNameSchema } from '../common/scalars.js';
import {
  ExtensionListSchema,
  ExtensionSchema,
  LoadExtensionsFormSchema,
  LoadedExtensionsSchema,
  MAX_EXTENSIONS_PER_LOAD,
  UploadExtensionFormSchema,
} from './extension.js';

/** Path parameters of an operation on one extension, named by id or by name. */
export const ExtensionPathSchema = /* @__PURE__ */ requestObject({
  id_or_name: /* @__PURE__ */ described(IdOrNameSchema, 'extension id or name'),
});

/** POST /extensions (4.4): uploads a zipped unpacked extension. */
export const uploadExtensionOperation = /* @__PURE__ */ defineOperation({
  name: 'extensions.upload',
  clusterRoute: 'here',
  summary: 'Upload a browser extension (zip with manifest.json at its root).',
  specSection: '4.4',
  method: 'POST',
  path: '/extensions',
  body: {
    encoding: 'multipart',
    schema: UploadExtensionFormSchema,
    maxBytes: LIMITS.extensionArchiveBytes + FORM_FRAMING_BYTES,
    maxParts: 16,
  },
  responses: { 201: { kind: 'json', schema: ExtensionSchema } },
  errorStatuses: [409, 413, 415],
  access: 'write',
});

/** GET /extensions: one page of the extensions (by `name` or `query`), oldest first. */
export const listExtensionsOperation = /* @__PURE__ */ defineOperation({
  name: 'extensions.list',
  clusterRoute: 'here',
  summary: 'List the uploaded extensions.',
  paginated: true,
  method: 'GET',
  path: '/extensions',
  query: NamedListQuerySchema,
  responses: { 200: { kind: 'json', schema: ExtensionListSchema } },
  errorStatuses: [],
  access: 'read',
});

/** GET /extensions/{id_or_name}: the archive as uploaded. */
export const downloadExtensionOperation = /* @__PURE__ */ defineOperation({
  name: 'extensions.download',
  clusterRoute: 'here',
  summary: 'Download an extension archive (zip).',
  method: 'GET',
  path: '/extensions/{id_or_name}',
  pathParams: ExtensionPathSchema,
  responses: { 200: { kind: 'binary', mediaType: 'application/zip' } },
  errorStatuses: [404],
  access: 'contents',
});

/** GET /extensions/{id_or_name}/metadata: the record (size, SHA-256, name) without the archive. */
export const getExtensionMetadataOperation = /* @__PURE__ */ defineOperation({
  name: 'extensions.metadata',
  clusterRoute: 'here',
  summary: "Get an extension's record (size, SHA-256, name) without downloading it.",
  method: 'GET',
  path: '/extensions/{id_or_name}/metadata',
  pathParams: ExtensionPathSchema,
  responses: { 200: { kind: 'json', schema: ExtensionSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** DELETE /extensions/{id_or_name}: removes the extension. */
export const deleteExtensionOperation = /* @__PURE__ */ defineOperation({
  name: 'extensions.delete',
  clusterRoute: 'here',
  summary: 'Delete an extension.',
  method: 'DELETE',
  path: '/extensions/{id_or_name}',
  pathParams: ExtensionPathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});

/**
 * POST /browsers/{id}/extensions: loads unpacked extensions into the running browser, without a
 * restart: its pages, URLs, files, processes and CDP clients stay as they are.
 */
export const loadExtensionsOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.loadExtensions',
  clusterRoute: 'session',
  summary: 'Load unpacked extensions (zips) into a running browser.',
  method: 'POST',
  path: '/browsers/{id}/extensions',
  pathParams: BrowserPathSchema,
  body: {
    encoding: 'multipart',
    schema: LoadExtensionsFormSchema,
    maxBytes: MAX_EXTENSIONS_PER_LOAD * (LIMITS.extensionArchiveBytes + FORM_FRAMING_BYTES),
    maxParts: 2 * MAX_EXTENSIONS_PER_LOAD,
  },
  responses: { 200: { kind: 'json', schema: LoadedExtensionsSchema } },
  errorStatuses: [404, 409, 413, 415],
  access: 'write',
});
