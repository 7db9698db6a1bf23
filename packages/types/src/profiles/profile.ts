import {
  array,
  type InferInput,
  type InferOutput,
  object,
  optional,
  picklist,
  string,
} from 'valibot';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { NameSchema, TimestampSchema } from '../common/scalars.js';

/**
 * A browser profile: the state a browser keeps between sessions (cookies, local storage,
 * IndexedDB, service workers, site permissions, extension state), saved by one session and
 * loaded by the next.
 */
export const ProfileSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the profile's id"),
  /** Unique among profiles. */
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "the profile's unique name",
  ),
  created_at: /* @__PURE__ */ described(TimestampSchema, 'when it was made (ISO 8601 UTC)'),
  /** When a session last saved its state into the profile; absent until one has. */
  updated_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when a session last saved into it (ISO 8601 UTC)',
  ),
  /** When a browser last loaded the profile; absent until one has. */
  last_used_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when a browser last loaded it (ISO 8601 UTC)',
  ),
});

/** A browser profile. */
export type Profile = InferOutput<typeof ProfileSchema>;

/** One page of a GET /profiles call. */
export const ProfileListSchema = /* @__PURE__ */ array(ProfileSchema);

/** Body of POST /profiles: an optional unique name. */
export const CreateProfileBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    name: /* @__PURE__ */ described(
      optional(NameSchema),
      'unique name, [A-Za-z0-9._-], 1–255 characters',
    ),
  }),
  {},
);

/** What a create-profile call asks for. */
export type CreateProfileInput = InferInput<typeof CreateProfileBodySchema>;

/** Body of PATCH /profiles/{id_or_name}: the new unique name. */
export const UpdateProfileBodySchema = /* @__PURE__ */ requestObject({
  name: /* @__PURE__ */ described(NameSchema, 'new unique name'),
});

/** What an update-profile call asks for. */
export type UpdateProfileInput = InferInput<typeof UpdateProfileBodySchema>;

/** The formats a profile downloads in. */
export const PROFILE_ARCHIVE_FORMATS = ['tar', 'tar.zst'] as const;

/** A profile download's format. */
export type ProfileArchiveFormat = (typeof PROFILE_ARCHIVE_FORMATS)[number];

/** Query of GET /profiles/{id_or_name}/download: `tar` (default) or `tar.zst`. */
export const DownloadProfileQuerySchema = /* @__PURE__ */ requestObject({
  format: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(PROFILE_ARCHIVE_FORMATS, 'must be tar or tar.zst'),
      'tar',
    ),
    'tar or tar.zst (zstd-compressed), default tar',
  ),
});

/** Media types of a profile download, by format. */
export const PROFILE_ARCHIVE_MEDIA_TYPES: Record<ProfileArchiveFormat, string> = {
  tar: 'application/x-tar',
  'tar.zst': 'application/zstd',
};
