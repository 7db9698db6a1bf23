import { checkExtensionArchive, notFound, ServiceError } from '@x/service-kernel';
import { type Extension, formatTimestamp } from '@x/types';

import type { HandlerTable } from './handler-types.js';
import type { FakeRuntime } from './runtime.js';
import { type FakeExtension, findByIdOrName } from './state.js';

function findExtension(runtime: FakeRuntime, idOrName: string): FakeExtension {
  const extension = findByIdOrName(
    runtime.state.extensions,
    idOrName,
    (candidate) => candidate.record.name,
  );
  if (!extension) throw notFound('extension', idOrName);
  return extension;
}

/** The uploaded extensions a browser or pool names; 404 for one that is not there. */
export function resolveExtensions(
  runtime: FakeRuntime,
  references: readonly { id?: string | undefined; name?: string | undefined }[],
): FakeExtension[] {
  return references.map((reference) =>
    findExtension(runtime, (reference.id ?? reference.name) as string),
  );
}

/** Handlers of the extension operations. */
export const extensionHandlers: Pick<
  HandlerTable,
  'extensions.upload' | 'extensions.list' | 'extensions.download' | 'extensions.delete'
> = {
  'extensions.upload': async ({ runtime, body }) => {
    const archive = new Uint8Array(await body.file.arrayBuffer());
    checkExtensionArchive(archive);
    if (body.name !== undefined) {
      for (const extension of runtime.state.extensions.values()) {
        if (extension.record.name === body.name) {
          throw new ServiceError('conflict', `An extension named "${body.name}" already exists.`);
        }
      }
    }
    const record: Extension = {
      id: runtime.nextId('ext'),
      created_at: formatTimestamp(runtime.clock()),
      size_bytes: archive.byteLength,
    };
    if (body.name !== undefined) record.name = body.name;
    runtime.state.extensions.set(record.id, { record, archive });
    return { status: 201, json: record };
  },
  'extensions.list': ({ runtime }) => ({
    status: 200,
    json: [...runtime.state.extensions.values()].map((extension) => extension.record),
  }),
  'extensions.download': ({ runtime, params }) => ({
    status: 200,
    bytes: findExtension(runtime, params.id_or_name as string).archive,
    contentType: 'application/zip',
  }),
  'extensions.delete': ({ runtime, params }) => {
    runtime.state.extensions.delete(findExtension(runtime, params.id_or_name as string).record.id);
    return { status: 204 };
  },
};
