/**
 * The `profiles` area: its records, each of its operations' input and answer as named types
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

// Records

export interface Profile {
  /** the profile's id */
  id: string;
  /** the profile's unique name */
  name?: string | undefined;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when a session last saved into it (ISO 8601 UTC) */
  updated_at?: string | undefined;
  /** when a browser last loaded it (ISO 8601 UTC) */
  last_used_at?: string | undefined;
}

// Inputs and answers

/** What `profiles.create` takes: its body fields. */
export interface CreateProfileInput {
  /** unique name, [A-Za-z0-9._-], 1–255 characters */
  name?: string | undefined;
}

/** What `profiles.delete` takes: its path parameters. */
export interface DeleteProfileInput {
  /** profile id or name */
  id_or_name: string;
}

/** What `profiles.download` takes: its path parameters, query parameters, side by side. */
export interface DownloadProfileInput {
  /** profile id or name */
  id_or_name: string;
  /** tar or tar.zst (zstd-compressed), default tar */
  format?: 'tar' | 'tar.zst' | undefined;
}

/** What `profiles.get` takes: its path parameters. */
export interface GetProfileInput {
  /** profile id or name */
  id_or_name: string;
}

/** What `profiles.list` takes: its query parameters. */
export interface ListProfilesInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only the record with exactly this name */
  name?: string | undefined;
  /** only records whose id or name contains this, any case, ≤ 255 characters */
  query?: string | undefined;
}

/** What `profiles.update` takes: its path parameters, body fields, side by side. */
export interface UpdateProfileInput {
  /** profile id or name */
  id_or_name: string;
  /** new unique name */
  name: string;
}

// Functions

// profiles

/**
 * Create a browser profile (empty until a session saves into it).
 *
 * `POST /profiles`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `profiles.create`
 */
export const createProfile: (
  core: Core,
  input?: CreateProfileInput,
  options?: CallOptions,
) => CallPromise<Profile> = /* @__PURE__ */ defineCall<CreateProfileInput, Profile>({
  name: 'profiles.create',
  method: 'POST',
  path: '/profiles',
  body: 'json',
  bodyOptional: true,
  responses: { 201: 'json' },
  write: true,
});

/**
 * Delete a browser profile (409 while a browser saves into it or a pool uses it).
 *
 * `DELETE /profiles/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `profiles.delete`
 */
export const deleteProfile: (
  core: Core,
  input: DeleteProfileInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteProfileInput, undefined>({
  name: 'profiles.delete',
  method: 'DELETE',
  path: '/profiles/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Download a browser profile's data (tar, or tar.zst with format=tar.zst).
 *
 * `GET /profiles/{id_or_name}/download`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `profiles.download`
 */
export const downloadProfile: (
  core: Core,
  input: DownloadProfileInput,
  options?: CallOptions,
) => CallPromise<BinaryBody> = /* @__PURE__ */ defineCall<DownloadProfileInput, BinaryBody>(
  {
    name: 'profiles.download',
    method: 'GET',
    path: '/profiles/{id_or_name}/download',
    query: ['format'],
    responses: { 200: 'binary' },
  },
  { readBody: readStreamBody },
);

/**
 * Get a browser profile.
 *
 * `GET /profiles/{id_or_name}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `profiles.get`
 */
export const getProfile: (
  core: Core,
  input: GetProfileInput,
  options?: CallOptions,
) => CallPromise<Profile> = /* @__PURE__ */ defineCall<GetProfileInput, Profile>({
  name: 'profiles.get',
  method: 'GET',
  path: '/profiles/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * List the browser profiles.
 *
 * `GET /profiles`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `profiles.list`
 */
export const listProfiles: (
  core: Core,
  input?: ListProfilesInput,
  options?: CallOptions,
) => PagePromise<Profile> = /* @__PURE__ */ defineListCall<ListProfilesInput, Profile>({
  name: 'profiles.list',
  method: 'GET',
  path: '/profiles',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Rename a browser profile.
 *
 * `PATCH /profiles/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `profiles.update`
 */
export const updateProfile: (
  core: Core,
  input: UpdateProfileInput,
  options?: CallOptions,
) => CallPromise<Profile> = /* @__PURE__ */ defineCall<UpdateProfileInput, Profile>({
  name: 'profiles.update',
  method: 'PATCH',
  path: '/profiles/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});
