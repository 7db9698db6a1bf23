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

/** Path parameters of an operation on one credential, named by id or by name. */
export const CredentialPathSchema = /* @__PURE__ */ requestObject({
  id_or_name: /* @__PURE__ */ described(IdOrNameSchema, 'credential id or name'),
});

/** POST /credentials: a login kept sealed, for sign-ins the service does. */
export const createCredentialOperation = /* @__PURE__ */ defineOperation({
  name: 'credentials.create',
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
  summary: "Get the current TOTP code of a credential's secret (RFC 6238) and when it expires.",
  method: 'GET',
  path: '/credentials/{id_or_name}/totp-code',
  pathParams: CredentialPathSchema,
  responses: { 200: { kind: 'json', schema: TotpCodeSchema } },
  errorStatuses: [404, 409],
  access: 'contents',
});
