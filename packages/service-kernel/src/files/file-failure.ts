import { INSTANCE_HOME } from '@x/types';
import { ServiceError } from '../service-error.js';

/**
 * Why a file operation could not be done, as an engine finds it: nothing there, a link leading
 * outside the home, something there that must not be, a directory where a file is wanted (or the
 * other way round), something neither (a device, a pipe), the instance's own user refused by the
 * permission bits, the instance's disk full, a body past its limit, a directory too large to
 * list or pack.
 */
export type FileFailureKind =
  | 'missing'
  | 'outside'
  | 'exists'
  | 'isDirectory'
  | 'notDirectory'
  | 'notFile'
  | 'denied'
  | 'full'
  | 'tooLarge'
  | 'tooMany';

/** A file operation an engine could not do; `path` is the instance path it concerns. */
export class FileFailure extends Error {
  readonly kind: FileFailureKind;
  readonly path: string;

  constructor(kind: FileFailureKind, path: string) {
    super(`${kind}: ${path}`);
    this.name = 'FileFailure';
    this.kind = kind;
    this.path = path;
  }
}

/** A field of the request that names a path: where it is (`query`, `body`) and its name. */
export interface PathField {
  readonly location: 'query' | 'body';
  readonly name: string;
}

const detail = (field: PathField, message: string) => ({
  details: [{ code: 'invalid_input', message: `${field.location}.${field.name}: ${message}` }],
});

/** Past the limit of one call's bytes. */
export function fileTooLarge(limit: number): ServiceError {
  return new ServiceError('payload_too_large', `The file is larger than ${limit} bytes.`);
}

/**
 * The answer for a FileFailure, worded once for the fake and the server. `isMaking`: the call makes
 * something at the path (write, mkdir, upload, move's destination), so a file or directory in the
 * way is a conflict (409); otherwise asking for the wrong kind is the caller's mistake (400).
 */
export function fileError(
  failure: FileFailure,
  field: PathField,
  options: { readonly isMaking: boolean; readonly hint?: string; readonly limit?: number },
): ServiceError {
  const { path } = failure;
  const hint = options.hint ? `: ${options.hint}` : '';
  switch (failure.kind) {
    case 'missing':
      return new ServiceError('not_found', `Nothing at ${path} on the instance.`);
    case 'outside':
      return new ServiceError('bad_request', `${field.name} must be inside ${INSTANCE_HOME}.`, {
        ...detail(field, `${path} leads outside ${INSTANCE_HOME}`),
      });
    case 'exists':
      return new ServiceError('conflict', `${path} already exists on the instance.`);
    case 'isDirectory':
      return options.isMaking
        ? new ServiceError('conflict', `${path} is a directory on the instance.`)
        : new ServiceError('bad_request', `${path} is a directory${hint}.`, {
            ...detail(field, 'is a directory'),
          });
    case 'notDirectory':
      return options.isMaking
        ? new ServiceError('conflict', `${path} is a file on the instance, not a directory.`)
        : new ServiceError('bad_request', `${path} is not a directory${hint}.`, {
            ...detail(field, 'is not a directory'),
          });
    case 'notFile':
      return new ServiceError('bad_request', `${path} is not a regular file or directory.`, {
        ...detail(field, 'is not a regular file'),
      });
    case 'denied':
      return new ServiceError(
        'forbidden',
        `The instance's user may not do this to ${path} (its permission bits): change them with set_file_permissions.`,
      );
    case 'full':
      return new ServiceError(
        'insufficient_storage',
        `The instance's disk is full: ${path} was not written. Delete files on it first.`,
      );
    case 'tooLarge':
      return fileTooLarge(options.limit ?? 0);
    case 'tooMany':
      return new ServiceError(
        'payload_too_large',
        `${path} holds more than ${options.limit ?? 0} entries; name a directory inside it.`,
      );
  }
}
