export {
  createProfileOperation,
  deleteProfileOperation,
  downloadProfileOperation,
  getProfileOperation,
  listProfilesOperation,
  ProfilePathSchema,
  updateProfileOperation,
} from './operations.js';
export {
  CreateProfileBodySchema,
  type CreateProfileInput,
  DownloadProfileQuerySchema,
  PROFILE_ARCHIVE_FORMATS,
  PROFILE_ARCHIVE_MEDIA_TYPES,
  type Profile,
  type ProfileArchiveFormat,
  ProfileListSchema,
  ProfileSchema,
  UpdateProfileBodySchema,
  type UpdateProfileInput,
} from './profile.js';
