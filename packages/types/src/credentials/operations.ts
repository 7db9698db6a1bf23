import { defineOperation } from '../catalog/operation.js';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { IdOrNameSchema } from '../common/scalars.js';
import {
  CreateCredentialBodySchema,
  CredentialListSchema,
  CredentialSchema,
  ListCredentialsQuerySchema,
  TotpCodeSchema,
  UpdateCredentialBodySchema,
} from './credential.js';
import {
  CreateCredentialProviderBodySchema,
  CredentialProviderItemsSchema,
  CredentialProviderListSchema,
  CredentialProviderSchema,
  CredentialProviderTestResultSchema,
  ListCredentialProvidersQuerySchema,
  UpdateCredentialProviderBodySchema,
} from './credential-provider.js';

/** Path parameters of an operation on one credential, named by id or by name. */
export const CredentialPathSchema = /* @__PURE__ */ requestObject({
  id_or_name: /* @__PURE__ */ described(IdOrNameSchema, 'credential id or name'),
});

/** POST /credentials: a login kept sealed, for sign-ins the service does. */
export const createCredentialOperation = /* @__PURE__ */ defineOperation({
  name: 'credentials.create',
  clusterRoute: 'here',
  summary: 'Store a credential (a login for one site); its values and TOTP secret are write-only.',
  method: 'POST',
  path: '/credentials',
  body: { encoding: 'json', schema: CreateCredentialBodySchema },
  responses: { 201: { kind: 'json', schema: CredentialSchema } },
  errorStatuses: [409],
  access: 'write',
});

/** GET /credentials: one page of the credentials, oldest first. */
export const listCredentialsOperation = /* @__PURE__ */ defineOperation({
  name: 'credentials.list',
  clusterRoute: 'here',
  summary: 'List the credentials (never their values).',
  paginated: true,
  method: 'GET',
  path: '/credentials',
  query: ListCredentialsQuerySchema,
  responses: { 200: { kind: 'json', schema: CredentialListSchema } },
  errorStatuses: [],
  access: 'read',
});

/** GET /credentials/{id_or_name}: one credential, with the names of its values. */
export const getCredentialOperation = /* @__PURE__ */ defineOperation({
  name: 'credentials.get',
  clusterRoute: 'here',
  summary: 'Get a credential (the names of its values, never the values).',
  method: 'GET',
  path: '/credentials/{id_or_name}',
  pathParams: CredentialPathSchema,
  responses: { 200: { kind: 'json', schema: CredentialSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** PATCH /credentials/{id_or_name}: values merged, removed, renamed, secrets replaced. */
export const updateCredentialOperation = /* @__PURE__ */ defineOperation({
  name: 'credentials.update',
  clusterRoute: 'here',
  summary:
    'Change a credential: values added, overwritten or removed; name, SSO provider, TOTP secret.',
  method: 'PATCH',
  path: '/credentials/{id_or_name}',
  pathParams: CredentialPathSchema,
  body: { encoding: 'json', schema: UpdateCredentialBodySchema },
  responses: { 200: { kind: 'json', schema: CredentialSchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** DELETE /credentials/{id_or_name}: the credential and its sealed values are gone. */
export const deleteCredentialOperation = /* @__PURE__ */ defineOperation({
  name: 'credentials.delete',
  clusterRoute: 'here',
  summary: 'Delete a credential and its sealed values.',
  method: 'DELETE',
  path: '/credentials/{id_or_name}',
  pathParams: CredentialPathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});

/** GET /credentials/{id_or_name}/totp-code: the current one-time code of its TOTP secret. */
export const getTotpCodeOperation = /* @__PURE__ */ defineOperation({
  name: 'credentials.totpCode',
  clusterRoute: 'here',
  summary: "Get the current TOTP code of a credential's secret (RFC 6238) and when it expires.",
  method: 'GET',
  path: '/credentials/{id_or_name}/totp-code',
  pathParams: CredentialPathSchema,
  responses: { 200: { kind: 'json', schema: TotpCodeSchema } },
  errorStatuses: [404, 409],
  access: 'contents',
});

/** Path parameters of an operation on one credential provider, named by id or by name. */
export const CredentialProviderPathSchema = /* @__PURE__ */ requestObject({
  id_or_name: /* @__PURE__ */ described(IdOrNameSchema, 'credential provider id or name'),
});

/** POST /org/credential_providers: an external store of logins (1Password Connect). */
export const createCredentialProviderOperation = /* @__PURE__ */ defineOperation({
  name: 'credentialProviders.create',
  clusterRoute: 'here',
  summary:
    'Add a credential provider (a 1Password Connect server) that sign-ins read logins from; its token is write-only.',
  method: 'POST',
  path: '/org/credential_providers',
  body: { encoding: 'json', schema: CreateCredentialProviderBodySchema },
  responses: { 201: { kind: 'json', schema: CredentialProviderSchema } },
  errorStatuses: [403, 409],
  access: 'write',
  scope: 'org',
});

/** GET /org/credential_providers: one page of the providers, oldest first. */
export const listCredentialProvidersOperation = /* @__PURE__ */ defineOperation({
  name: 'credentialProviders.list',
  clusterRoute: 'here',
  summary: "List the organization's credential providers (never their tokens).",
  paginated: true,
  method: 'GET',
  path: '/org/credential_providers',
  query: ListCredentialProvidersQuerySchema,
  responses: { 200: { kind: 'json', schema: CredentialProviderListSchema } },
  errorStatuses: [],
  access: 'read',
  scope: 'org',
});

/** GET /org/credential_providers/{id_or_name}: one provider. */
export const getCredentialProviderOperation = /* @__PURE__ */ defineOperation({
  name: 'credentialProviders.get',
  clusterRoute: 'here',
  summary: 'Get a credential provider (never its token).',
  method: 'GET',
  path: '/org/credential_providers/{id_or_name}',
  pathParams: CredentialProviderPathSchema,
  responses: { 200: { kind: 'json', schema: CredentialProviderSchema } },
  errorStatuses: [404],
  access: 'read',
  scope: 'org',
});

/** PATCH /org/credential_providers/{id_or_name}: renamed, token rotated, turned off, reordered. */
export const updateCredentialProviderOperation = /* @__PURE__ */ defineOperation({
  name: 'credentialProviders.update',
  clusterRoute: 'here',
  summary:
    'Change a credential provider: name, token (rotation), address, cache time, enabled, priority, the projects it is opened to.',
  method: 'PATCH',
  path: '/org/credential_providers/{id_or_name}',
  pathParams: CredentialProviderPathSchema,
  body: { encoding: 'json', schema: UpdateCredentialProviderBodySchema },
  responses: { 200: { kind: 'json', schema: CredentialProviderSchema } },
  errorStatuses: [403, 404, 409],
  access: 'write',
  scope: 'org',
});

/** DELETE /org/credential_providers/{id_or_name}: the provider and its sealed token are gone. */
export const deleteCredentialProviderOperation = /* @__PURE__ */ defineOperation({
  name: 'credentialProviders.delete',
  clusterRoute: 'here',
  summary: 'Delete a credential provider and its sealed token.',
  method: 'DELETE',
  path: '/org/credential_providers/{id_or_name}',
  pathParams: CredentialProviderPathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [403, 404],
  access: 'write',
  scope: 'org',
});

/** POST /org/credential_providers/{id_or_name}/test: is it reachable, is its token taken. */
export const testCredentialProviderOperation = /* @__PURE__ */ defineOperation({
  name: 'credentialProviders.test',
  clusterRoute: 'here',
  summary: 'Test a credential provider: whether it answers and takes the token, and its vaults.',
  method: 'POST',
  path: '/org/credential_providers/{id_or_name}/test',
  pathParams: CredentialProviderPathSchema,
  responses: { 200: { kind: 'json', schema: CredentialProviderTestResultSchema } },
  errorStatuses: [404],
  access: 'write',
  scope: 'org',
});

/** GET /org/credential_providers/{id_or_name}/items: the login items it holds (no values). */
export const listCredentialProviderItemsOperation = /* @__PURE__ */ defineOperation({
  name: 'credentialProviders.items',
  clusterRoute: 'here',
  summary: "List a credential provider's login items: paths, titles, sites (never their values).",
  method: 'GET',
  path: '/org/credential_providers/{id_or_name}/items',
  pathParams: CredentialProviderPathSchema,
  responses: { 200: { kind: 'json', schema: CredentialProviderItemsSchema } },
  errorStatuses: [404, 502],
  access: 'contents',
  scope: 'org',
});
