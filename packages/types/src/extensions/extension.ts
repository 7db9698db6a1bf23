import { array, blob, type InferOutput, object, optional, pipe, regex, string } from 'valibot';
import { described } from '../common/describe.js';
import { LIMITS } from '../common/limits.js';
import { requestObject } from '../common/request-object.js';
import { CountSchema, NameSchema, TimestampSchema } from '../common/scalars.js';

/** A browser extension uploaded to the service (operation 4.4). */
export const ExtensionSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the extension's id"),
  created_at: /* @__PURE__ */ described(TimestampSchema, 'when it was uploaded (ISO 8601 UTC)'),
  size_bytes: /* @__PURE__ */ described(CountSchema, 'size of the archive as uploaded, in bytes'),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "the extension's unique name",
  ),
  checksum: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ string(),
        /* @__PURE__ */ regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits'),
      ),
    ),
    'SHA-256 of the archive exactly as uploaded, lowercase hex',
  ),
  last_used_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when a browser last loaded it (ISO 8601 UTC)',
  ),
});

/** A browser extension uploaded to the service. */
export type Extension = InferOutput<typeof ExtensionSchema>;

/** The list of a GET /extensions call. */
export const ExtensionListSchema = /* @__PURE__ */ array(ExtensionSchema);

/**
 * The form parts of POST /extensions: `file`, a zip of an unpacked extension with manifest.json at
 * its root, and an optional unique `name`.
 */
export const UploadExtensionFormSchema = /* @__PURE__ */ requestObject({
  file: /* @__PURE__ */ described(
    /* @__PURE__ */ blob('must be a file'),
    `zip of an unpacked extension, manifest.json at its root, ≤ ${LIMITS.extensionArchiveBytes} bytes`,
  ),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(NameSchema),
    'unique name to refer to it by, [A-Za-z0-9._-], 1–255 characters',
  ),
});

/** The form parts of an upload. */
export type UploadExtensionForm = InferOutput<typeof UploadExtensionFormSchema>;

/** The keys manifest.json must have at the root of an extension archive. */
export const REQUIRED_MANIFEST_KEYS = ['manifest_version', 'name', 'version'] as const;
