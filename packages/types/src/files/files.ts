import {
  array,
  blob,
  boolean,
  check,
  custom,
  type InferInput,
  type InferOutput,
  maxLength,
  minLength,
  number,
  object,
  optional,
  pipe,
  regex,
  string,
} from 'valibot';
import { described } from '../common/describe.js';
import { LIMITS } from '../common/limits.js';
import { requestObject } from '../common/request-object.js';
import { NAME_PATTERN, TimestampSchema } from '../common/scalars.js';
import { BINARY_CONTENT_KINDS, type BinaryContent, isBinaryContent } from './binary-content.js';

/** The instance's home: every path a file operation names is inside it. */
export const INSTANCE_HOME = '/home/browser';

/**
 * A path on the instance: absolute, at most 4,096 bytes, without a NUL. That it is inside
 * `/home/browser` once `..` and links are resolved is the service's to check (400 otherwise).
 */
export const InstanceFilePathSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ minLength(1, 'must not be empty'),
  /* @__PURE__ */ check(
    (path) => path.startsWith('/'),
    'must be an absolute path (starting with /)',
  ),
  /* @__PURE__ */ check((path) => !path.includes('\0'), 'must not contain a NUL character'),
  /* @__PURE__ */ check(
    (path) => new TextEncoder().encode(path).byteLength <= LIMITS.filePathBytes,
    `must be at most ${LIMITS.filePathBytes} bytes`,
  ),
);

/** Permission bits as an octal string: `644`, `0755`, `1777` (3 or 4 octal digits). */
export const FileModeSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ regex(/^[0-7]{3,4}$/, 'must be 3 or 4 octal digits, like 644 or 0755'),
);

/** Mode of a file written without one. */
export const DEFAULT_FILE_MODE = '644';

/** Mode of a directory made without one. */
export const DEFAULT_DIRECTORY_MODE = '755';

/** One file or directory on the instance, as list_files and file_info answer. */
export const FileEntrySchema = /* @__PURE__ */ object({
  /** Its last path segment. */
  name: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the entry's name"),
  /** Its absolute path on the instance. */
  path: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the entry's absolute path"),
  is_dir: /* @__PURE__ */ described(/* @__PURE__ */ boolean(), 'whether it is a directory'),
  /** Its size in bytes (a directory's is what the file system says, often 4096). */
  size_bytes: /* @__PURE__ */ described(/* @__PURE__ */ number(), 'size in bytes'),
  /** Its permission bits as an octal string (`644`, `755`). */
  mode: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'permissions, octal (644)'),
  /** When its content last changed (ISO 8601). */
  mod_time: /* @__PURE__ */ described(TimestampSchema, 'last modified (ISO 8601 UTC)'),
});

/** A file or directory on the instance. */
export type FileEntry = InferOutput<typeof FileEntrySchema>;

/** Answer of list_files: the entries of one directory, by name. */
export const FileEntryListSchema = /* @__PURE__ */ array(FileEntrySchema);

/** Query of an operation on one path: read_file, list_files, file_info, download_dir_zip. */
export const FilePathQuerySchema = /* @__PURE__ */ requestObject({
  path: /* @__PURE__ */ described(InstanceFilePathSchema, 'absolute path on the browser instance'),
});

/** Query of PUT write_file: where, and the new file's permission bits. */
export const WriteFileQuerySchema = /* @__PURE__ */ requestObject({
  path: /* @__PURE__ */ described(
    InstanceFilePathSchema,
    `absolute path of the file, ≤ ${LIMITS.filePathBytes} bytes`,
  ),
  mode: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(FileModeSchema, DEFAULT_FILE_MODE),
    `permissions, 3 or 4 octal digits, default ${DEFAULT_FILE_MODE}`,
  ),
});

/** The raw bytes of a binary request body; a handler gets them as a stream. */
export const BinaryContentSchema = /* @__PURE__ */ requestObject({
  content: /* @__PURE__ */ described(
    custom<BinaryContent>(isBinaryContent, `must be ${BINARY_CONTENT_KINDS}`),
    "the file's bytes, streamed as sent",
  ),
});

/** Body of PUT create_directory: made with every missing parent, like `mkdir -p`. */
export const CreateDirectoryBodySchema = /* @__PURE__ */ requestObject({
  path: /* @__PURE__ */ described(
    InstanceFilePathSchema,
    'absolute path of the directory; missing parents are made',
  ),
  mode: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(FileModeSchema, DEFAULT_DIRECTORY_MODE),
    `permissions, 3 or 4 octal digits, default ${DEFAULT_DIRECTORY_MODE}`,
  ),
});

/** Body of PUT delete_file and PUT delete_directory. */
export const FilePathBodySchema = /* @__PURE__ */ requestObject({
  path: /* @__PURE__ */ described(InstanceFilePathSchema, 'absolute path on the browser instance'),
});

/** Body of PUT move: renames a file or directory; the destination must not exist. */
export const MoveFileBodySchema = /* @__PURE__ */ requestObject({
  src_path: /* @__PURE__ */ described(InstanceFilePathSchema, 'absolute path to move from'),
  dest_path: /* @__PURE__ */ described(InstanceFilePathSchema, 'absolute path to move to'),
});

/** A user or group name as `chown` takes it. */
const OwnerSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ regex(NAME_PATTERN, 'must be a user or group name'),
);

/**
 * Body of PUT set_file_permissions. `owner` and `group` may only name the instance's own user
 * and group (`browser`): nothing on an instance may be given away.
 */
export const SetFilePermissionsBodySchema = /* @__PURE__ */ requestObject({
  path: /* @__PURE__ */ described(InstanceFilePathSchema, 'absolute path of the file or directory'),
  mode: /* @__PURE__ */ described(FileModeSchema, 'permissions, 3 or 4 octal digits (755)'),
  owner: /* @__PURE__ */ described(/* @__PURE__ */ optional(OwnerSchema), 'user to own it'),
  group: /* @__PURE__ */ described(/* @__PURE__ */ optional(OwnerSchema), 'group to own it'),
});

/** One file of an upload: where it goes, and its bytes. */
export const UploadFileSchema = /* @__PURE__ */ requestObject({
  dest_path: /* @__PURE__ */ described(
    InstanceFilePathSchema,
    'absolute path to write the file at',
  ),
  file: /* @__PURE__ */ described(/* @__PURE__ */ blob('must be a file'), 'the file'),
});

/**
 * Form of POST upload: `files[0][dest_path]`, `files[0][file]`, `files[1][dest_path]`, … Each
 * file is written whole or not at all; parents are made.
 */
export const UploadFilesFormSchema = /* @__PURE__ */ requestObject({
  files: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ array(UploadFileSchema, 'must be a list of files'),
      /* @__PURE__ */ minLength(1, 'must hold at least one file'),
      /* @__PURE__ */ maxLength(
        LIMITS.uploadFiles,
        `must hold at most ${LIMITS.uploadFiles} files`,
      ),
    ),
    `files, each with its destination, at most ${LIMITS.uploadFiles}`,
  ),
});

/** Form of POST upload_zip: a zip unpacked into `dest_path` (made if missing). */
export const UploadZipFormSchema = /* @__PURE__ */ requestObject({
  dest_path: /* @__PURE__ */ described(
    InstanceFilePathSchema,
    'absolute path of the directory to unpack into',
  ),
  zip_file: /* @__PURE__ */ described(/* @__PURE__ */ blob('must be a file'), 'the zip archive'),
});

/** What each file operation takes. */
export type WriteFileInput = InferInput<typeof WriteFileQuerySchema> & {
  content: BinaryContent;
};
export type CreateDirectoryInput = InferInput<typeof CreateDirectoryBodySchema>;
export type MoveFileInput = InferInput<typeof MoveFileBodySchema>;
export type SetFilePermissionsInput = InferInput<typeof SetFilePermissionsBodySchema>;
export type UploadFilesInput = InferInput<typeof UploadFilesFormSchema>;
export type UploadZipInput = InferInput<typeof UploadZipFormSchema>;
