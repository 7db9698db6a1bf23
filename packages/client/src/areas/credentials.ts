/**
 * The `credentials` area: its records, each of its operations' input and answer as named types
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

// Records

export interface CredentialProvider {
  /** the provider's id */
  id: string;
  /** the provider's name, unique in the organization */
  name: string;
  /** what kind of store it is: onepassword */
  provider_type: 'onepassword';
  /** where its server answers (the 1Password Connect server) */
  url: string;
  /** whether sign-ins look items up in it */
  enabled: boolean;
  /** its place when several providers are asked for a site: lower first */
  priority: number;
  /** how long its lists of vaults and items are kept before it is asked again */
  cache_ttl_seconds: number;
  /** the projects whose own keys may sign in with its items (by id); organization-wide keys always may */
  allowed_projects: string[];
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when it last changed (ISO 8601 UTC) */
  updated_at: string;
}

export interface CredentialProviderItem {
  /** the item's id in the provider */
  id: string;
  /** how a sign-in names it: "<vault name>/<item title>" */
  path: string;
  /** the item's title */
  title: string;
  /** its vault's id */
  vault_id: string;
  /** its vault's name */
  vault_name: string;
  /** the sites it is for, as the item lists them */
  urls?: string[] | undefined;
}

export interface CredentialProviderItems {
  /** the login items of every vault the token reaches */
  items: CredentialProviderItem[];
}

export interface ProviderVault {
  /** the vault's id in the provider */
  id: string;
  /** the vault's name */
  name: string;
}

export interface CredentialProviderTestResult {
  /** whether the provider answered and took the token */
  success: boolean;
  /** the vaults the token reaches (empty when it failed) */
  vaults: ProviderVault[];
  /** why it failed: refused, unreachable, the token not accepted */
  error?: string | undefined;
}

export interface Credential {
  /** the credential's id */
  id: string;
  /** the credential's name, unique in its project */
  name: string;
  /** the site it signs in to */
  domain: string;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when it last changed (ISO 8601 UTC) */
  updated_at: string;
  /** whether it holds any value */
  has_values?: boolean | undefined;
  /** whether it holds a TOTP secret */
  has_totp_secret?: boolean | undefined;
  /** the identity provider its sign-in goes through, if any */
  sso_provider?: string | null | undefined;
  /** the names of its values (never the values); on single credentials, not in lists */
  value_keys?: string[] | undefined;
  /** the current TOTP code, only in the answer to a call that just set the secret */
  totp_code?: string | undefined;
  /** when that code stops being valid (ISO 8601 UTC) */
  totp_code_expires_at?: string | undefined;
}

export interface TotpCode {
  /** the current code, 6 digits */
  code: string;
  /** when it stops being valid: the end of its 30-second step (ISO 8601 UTC) */
  expires_at: string;
}

// Inputs and answers

/** What `credentialProviders.create` takes: its body fields. */
export interface CreateCredentialProviderInput {
  /** unique name in the organization, [A-Za-z0-9._-], 1–255 characters */
  name: string;
  /** what kind of store it is: onepassword */
  provider_type: 'onepassword';
  /** the token its server accepts (a 1Password Connect access token); write-only */
  token: string;
  /** its server's address (the 1Password Connect server); the operator's default when left out */
  url?: string | undefined;
  /** how long its lists are kept, in seconds (0–86400, default 300) */
  cache_ttl_seconds?: number | undefined;
  /** whether sign-ins look items up in it (default true) */
  enabled?: boolean | undefined;
  /** its place among providers, lower first (0–1000, default 0) */
  priority?: number | undefined;
  /** the projects whose own keys may sign in with its items, by id (default none: only organization-wide keys may) */
  allowed_projects?: string[] | undefined;
}

/** What `credentialProviders.delete` takes: its path parameters. */
export interface DeleteCredentialProviderInput {
  /** credential provider id or name */
  id_or_name: string;
}

/** What `credentialProviders.get` takes: its path parameters. */
export interface GetCredentialProviderInput {
  /** credential provider id or name */
  id_or_name: string;
}

/** What `credentialProviders.items` takes: its path parameters. */
export interface ListCredentialProviderItemsInput {
  /** credential provider id or name */
  id_or_name: string;
}

/** What `credentialProviders.list` takes: its query parameters. */
export interface ListCredentialProvidersInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only providers whose name contains this (any case), or whose id it is */
  query?: string | undefined;
}

/** What `credentialProviders.test` takes: its path parameters. */
export interface TestCredentialProviderInput {
  /** credential provider id or name */
  id_or_name: string;
}

/** What `credentialProviders.update` takes: its path parameters, body fields, side by side. */
export interface UpdateCredentialProviderInput {
  /** credential provider id or name */
  id_or_name: string;
  /** new unique name */
  name?: string | undefined;
  /** a new token (rotation); write-only */
  token?: string | undefined;
  /** a new address */
  url?: string | undefined;
  /** how long its lists are kept, in seconds */
  cache_ttl_seconds?: number | undefined;
  /** whether sign-ins look items up in it */
  enabled?: boolean | undefined;
  /** its place among providers, lower first */
  priority?: number | undefined;
  /** the projects whose own keys may sign in with its items, by id (replaces the list) */
  allowed_projects?: string[] | undefined;
}

/** What `credentials.create` takes: its body fields. */
export interface CreateCredentialInput {
  /** the site it signs in to: a host name (example.com, or *.example.com for its subdomains) */
  domain: string;
  /** unique name in the project, [A-Za-z0-9._-], 1–255 characters */
  name: string;
  /** the values its sign-in fills, by name (username, email, password, …), at most 50; write-only */
  values: { [key: string]: string };
  /** an identity provider whose button its sign-in clicks first (google, github, microsoft, …) */
  sso_provider?: string | undefined;
  /** the base32 secret of its one-time codes (RFC 6238: 6 digits, 30 s, SHA-1); write-only */
  totp_secret?: string | undefined;
}

/** What `credentials.delete` takes: its path parameters. */
export interface DeleteCredentialInput {
  /** credential id or name */
  id_or_name: string;
}

/** What `credentials.get` takes: its path parameters. */
export interface GetCredentialInput {
  /** credential id or name */
  id_or_name: string;
}

/** What `credentials.list` takes: its query parameters. */
export interface ListCredentialsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only credentials for exactly this site */
  domain?: string | undefined;
  /** only credentials whose name or site contains this (any case), or whose id it is */
  query?: string | undefined;
}

/** What `credentials.totpCode` takes: its path parameters. */
export interface GetTotpCodeInput {
  /** credential id or name */
  id_or_name: string;
}

/** What `credentials.update` takes: its path parameters, body fields, side by side. */
export interface UpdateCredentialInput {
  /** credential id or name */
  id_or_name: string;
  /** new unique name */
  name?: string | undefined;
  /** values to add or overwrite, by name (the others stay) */
  values?: { [key: string]: string } | undefined;
  /** names of values to remove, applied before `values` */
  remove_value_keys?: string[] | undefined;
  /** a new identity provider; null or "" clears it */
  sso_provider?: string | null | undefined;
  /** a new base32 TOTP secret; "" removes it */
  totp_secret?: string | undefined;
}

// Functions

// credentialProviders

/**
 * Add a credential provider (a 1Password Connect server) that sign-ins read logins from; its token is write-only.
 *
 * `POST /org/credential_providers`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `credentialProviders.create`
 */
export const createCredentialProvider: (
  core: Core,
  input: CreateCredentialProviderInput,
  options?: CallOptions,
) => CallPromise<CredentialProvider> = /* @__PURE__ */ defineCall<
  CreateCredentialProviderInput,
  CredentialProvider
>({
  name: 'credentialProviders.create',
  method: 'POST',
  path: '/org/credential_providers',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * Delete a credential provider and its sealed token.
 *
 * `DELETE /org/credential_providers/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `credentialProviders.delete`
 */
export const deleteCredentialProvider: (
  core: Core,
  input: DeleteCredentialProviderInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteCredentialProviderInput, undefined>({
  name: 'credentialProviders.delete',
  method: 'DELETE',
  path: '/org/credential_providers/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Get a credential provider (never its token).
 *
 * `GET /org/credential_providers/{id_or_name}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `credentialProviders.get`
 */
export const getCredentialProvider: (
  core: Core,
  input: GetCredentialProviderInput,
  options?: CallOptions,
) => CallPromise<CredentialProvider> = /* @__PURE__ */ defineCall<
  GetCredentialProviderInput,
  CredentialProvider
>({
  name: 'credentialProviders.get',
  method: 'GET',
  path: '/org/credential_providers/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * List a credential provider's login items: paths, titles, sites (never their values).
 *
 * `GET /org/credential_providers/{id_or_name}/items`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 502, 503.
 * `credentialProviders.items`
 */
export const listCredentialProviderItems: (
  core: Core,
  input: ListCredentialProviderItemsInput,
  options?: CallOptions,
) => CallPromise<CredentialProviderItems> = /* @__PURE__ */ defineCall<
  ListCredentialProviderItemsInput,
  CredentialProviderItems
>({
  name: 'credentialProviders.items',
  method: 'GET',
  path: '/org/credential_providers/{id_or_name}/items',
  responses: { 200: 'json' },
});

/**
 * List the organization's credential providers (never their tokens).
 *
 * `GET /org/credential_providers`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `credentialProviders.list`
 */
export const listCredentialProviders: (
  core: Core,
  input?: ListCredentialProvidersInput,
  options?: CallOptions,
) => PagePromise<CredentialProvider> = /* @__PURE__ */ defineListCall<
  ListCredentialProvidersInput,
  CredentialProvider
>({
  name: 'credentialProviders.list',
  method: 'GET',
  path: '/org/credential_providers',
  query: ['offset', 'limit', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Test a credential provider: whether it answers and takes the token, and its vaults.
 *
 * `POST /org/credential_providers/{id_or_name}/test`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
 * `credentialProviders.test`
 */
export const testCredentialProvider: (
  core: Core,
  input: TestCredentialProviderInput,
  options?: CallOptions,
) => CallPromise<CredentialProviderTestResult> = /* @__PURE__ */ defineCall<
  TestCredentialProviderInput,
  CredentialProviderTestResult
>({
  name: 'credentialProviders.test',
  method: 'POST',
  path: '/org/credential_providers/{id_or_name}/test',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Change a credential provider: name, token (rotation), address, cache time, enabled, priority, the projects it is opened to.
 *
 * `PATCH /org/credential_providers/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `credentialProviders.update`
 */
export const updateCredentialProvider: (
  core: Core,
  input: UpdateCredentialProviderInput,
  options?: CallOptions,
) => CallPromise<CredentialProvider> = /* @__PURE__ */ defineCall<
  UpdateCredentialProviderInput,
  CredentialProvider
>({
  name: 'credentialProviders.update',
  method: 'PATCH',
  path: '/org/credential_providers/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

// credentials

/**
 * Store a credential (a login for one site); its values and TOTP secret are write-only.
 *
 * `POST /credentials`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `credentials.create`
 */
export const createCredential: (
  core: Core,
  input: CreateCredentialInput,
  options?: CallOptions,
) => CallPromise<Credential> = /* @__PURE__ */ defineCall<CreateCredentialInput, Credential>({
  name: 'credentials.create',
  method: 'POST',
  path: '/credentials',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * Delete a credential and its sealed values.
 *
 * `DELETE /credentials/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `credentials.delete`
 */
export const deleteCredential: (
  core: Core,
  input: DeleteCredentialInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteCredentialInput, undefined>({
  name: 'credentials.delete',
  method: 'DELETE',
  path: '/credentials/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Get a credential (the names of its values, never the values).
 *
 * `GET /credentials/{id_or_name}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `credentials.get`
 */
export const getCredential: (
  core: Core,
  input: GetCredentialInput,
  options?: CallOptions,
) => CallPromise<Credential> = /* @__PURE__ */ defineCall<GetCredentialInput, Credential>({
  name: 'credentials.get',
  method: 'GET',
  path: '/credentials/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * List the credentials (never their values).
 *
 * `GET /credentials`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `credentials.list`
 */
export const listCredentials: (
  core: Core,
  input?: ListCredentialsInput,
  options?: CallOptions,
) => PagePromise<Credential> = /* @__PURE__ */ defineListCall<ListCredentialsInput, Credential>({
  name: 'credentials.list',
  method: 'GET',
  path: '/credentials',
  query: ['offset', 'limit', 'domain', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get the current TOTP code of a credential's secret (RFC 6238) and when it expires.
 *
 * `GET /credentials/{id_or_name}/totp-code`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `credentials.totpCode`
 */
export const getTotpCode: (
  core: Core,
  input: GetTotpCodeInput,
  options?: CallOptions,
) => CallPromise<TotpCode> = /* @__PURE__ */ defineCall<GetTotpCodeInput, TotpCode>({
  name: 'credentials.totpCode',
  method: 'GET',
  path: '/credentials/{id_or_name}/totp-code',
  responses: { 200: 'json' },
});

/**
 * Change a credential: values added, overwritten or removed; name, SSO provider, TOTP secret.
 *
 * `PATCH /credentials/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `credentials.update`
 */
export const updateCredential: (
  core: Core,
  input: UpdateCredentialInput,
  options?: CallOptions,
) => CallPromise<Credential> = /* @__PURE__ */ defineCall<UpdateCredentialInput, Credential>({
  name: 'credentials.update',
  method: 'PATCH',
  path: '/credentials/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});
