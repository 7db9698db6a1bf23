import { array, blob, type InferOutput, object, optional, string } from 'valibot';
import { requestObject } from '../common/request-object.js';
import { CountSchema, NameSchema, TimestampSchema } from '../common/scalars.js';

/** A browser extension uploaded to the service (operation 4.4). */
export const ExtensionSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ string(),
  created_at: TimestampSchema,
  size_bytes: CountSchema,
  name: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  last_used_at: /* @__PURE__ */ optional(TimestampSchema),
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
  file: /* @__PURE__ */ blob('must be a file'),
  name: /* @__PURE__ */ optional(NameSchema),
});

/** The form parts of an upload. */
export type UploadExtensionForm = InferOutput<typeof UploadExtensionFormSchema>;

/** The keys manifest.json must have at the root of an extension archive. */
export const REQUIRED_MANIFEST_KEYS = ['manifest_version', 'name', 'version'] as const;
