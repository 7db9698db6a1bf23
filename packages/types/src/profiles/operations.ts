import { defineOperation } from '../catalog/operation.js';
import { described } from '../common/describe.js';
import { NamedListQuerySchema } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { IdOrNameSchema } from '../common/scalars.js';
import {
  CreateProfileBodySchema,
  DownloadProfileQuerySchema,
  PROFILE_ARCHIVE_MEDIA_TYPES,
  ProfileListSchema,
  ProfileSchema,
  UpdateProfileBodySchema,
} from './profile.js';

/** Path parameters of an operation on one profile, named by id or by name. */
export const ProfilePathSchema = /* @__PURE__ */ requestObject({
  id_or_name: /* @__PURE__ */ described(IdOrNameSchema, 'profile id or name'),
});

/** POST /profiles: a new, empty profile. */
export const createProfileOperation = /* @__PURE__ */ defineOperation({
  name: 'profiles.create',
  clusterRoute: 'here',
  summary: 'Create a browser profile (empty until a session saves into it).',
  method: 'POST',
  path: '/profiles',
  body: { encoding: 'json', schema: CreateProfileBodySchema },
  responses: { 201: { kind: 'json', schema: ProfileSchema } },
  errorStatuses: [409],
  access: 'write',
});

/** GET /profiles: one page of the profiles, oldest first. */
export const listProfilesOperation = /* @__PURE__ */ defineOperation({
  name: 'profiles.list',
  clusterRoute: 'here',
  summary: 'List the browser profiles.',
  paginated: true,
  method: 'GET',
  path: '/profiles',
  query: NamedListQuerySchema,
  responses: { 200: { kind: 'json', schema: ProfileListSchema } },
  errorStatuses: [],
  access: 'read',
});

/** GET /profiles/{id_or_name}: one profile. */
export const getProfileOperation = /* @__PURE__ */ defineOperation({
  name: 'profiles.get',
  clusterRoute: 'here',
  summary: 'Get a browser profile.',
  method: 'GET',
  path: '/profiles/{id_or_name}',
  pathParams: ProfilePathSchema,
  responses: { 200: { kind: 'json', schema: ProfileSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** PATCH /profiles/{id_or_name}: renames a profile. */
export const updateProfileOperation = /* @__PURE__ */ defineOperation({
  name: 'profiles.update',
  clusterRoute: 'here',
  summary: 'Rename a browser profile.',
  method: 'PATCH',
  path: '/profiles/{id_or_name}',
  pathParams: ProfilePathSchema,
  body: { encoding: 'json', schema: UpdateProfileBodySchema },
  responses: { 200: { kind: 'json', schema: ProfileSchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** DELETE /profiles/{id_or_name}: removes a profile and its data. */
export const deleteProfileOperation = /* @__PURE__ */ defineOperation({
  name: 'profiles.delete',
  clusterRoute: 'here',
  summary: 'Delete a browser profile (409 while a browser saves into it or a pool uses it).',
  method: 'DELETE',
  path: '/profiles/{id_or_name}',
  pathParams: ProfilePathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** GET /profiles/{id_or_name}/download: the profile's saved data, as a tar, streamed. */
export const downloadProfileOperation = /* @__PURE__ */ defineOperation({
  name: 'profiles.download',
  clusterRoute: 'here',
  summary: "Download a browser profile's data (tar, or tar.zst with format=tar.zst).",
  method: 'GET',
  path: '/profiles/{id_or_name}/download',
  pathParams: ProfilePathSchema,
  query: DownloadProfileQuerySchema,
  responses: {
    200: {
      kind: 'binary',
      mediaType: PROFILE_ARCHIVE_MEDIA_TYPES.tar,
      otherMediaTypes: [PROFILE_ARCHIVE_MEDIA_TYPES['tar.zst']],
    },
  },
  errorStatuses: [404],
  access: 'contents',
});
