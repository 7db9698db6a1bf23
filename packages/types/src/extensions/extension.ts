import {
  array,
  blob,
  check,
  type InferOutput,
  maxLength,
  minLength,
  object,
  optional,
  pipe,
  regex,
  string,
} from 'valibot';
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

/** Most extensions one call loads into a running browser. */
export const MAX_EXTENSIONS_PER_LOAD = 20;

/**
 * The form of POST /browsers/{id}/extensions: unpacked extensions to load into the running
 * browser, each a zip (`extensions[i][zip_file]`, manifest.json at its root) and the name of the
 * folder it is unpacked into (`extensions[i][name]`).
 */
export const LoadExtensionsFormSchema = /* @__PURE__ */ requestObject({
  extensions: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ array(
        /* @__PURE__ */ requestObject({
          name: /* @__PURE__ */ described(
            NameSchema,
            'folder name of the extension, [A-Za-z0-9._-], 1–255 characters',
          ),
          zip_file: /* @__PURE__ */ described(
            /* @__PURE__ */ blob('must be a file'),
            `zip of an unpacked extension, manifest.json at its root, ≤ ${LIMITS.extensionArchiveBytes} bytes`,
          ),
        }),
        'must be a list of extensions',
      ),
      /* @__PURE__ */ minLength(1, 'must hold at least one extension'),
      /* @__PURE__ */ maxLength(MAX_EXTENSIONS_PER_LOAD, 'must hold at most 20 extensions'),
      /* @__PURE__ */ check(
        (extensions) =>
          new Set(extensions.map((extension) => extension.name)).size === extensions.length,
        'must not name one folder twice',
      ),
    ),
    'extensions to load, each with its folder name, at most 20',
  ),
});

/** The form parts of loading extensions into a running browser. */
export type LoadExtensionsForm = InferOutput<typeof LoadExtensionsFormSchema>;

/** What loading extensions into a running browser answers: each one's Chrome extension id. */
export const LoadedExtensionsSchema = /* @__PURE__ */ object({
  extensions: /* @__PURE__ */ described(
    /* @__PURE__ */ array(
      /* @__PURE__ */ object({
        name: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'its folder name, as sent'),
        extension_id: /* @__PURE__ */ described(
          /* @__PURE__ */ string(),
          'the id Chromium gave it (its chrome-extension:// host)',
        ),
      }),
    ),
    'the extensions loaded, in the order sent',
  ),
});

/** What loading extensions into a running browser answers. */
export type LoadedExtensions = InferOutput<typeof LoadedExtensionsSchema>;

/** The keys manifest.json must have at the root of an extension archive. */
export const REQUIRED_MANIFEST_KEYS = ['manifest_version', 'name', 'version'] as const;
