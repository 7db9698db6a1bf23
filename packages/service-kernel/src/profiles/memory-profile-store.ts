import * as zlib from 'node:zlib';
import type { ProfileArchiveFormat } from '@x/types';
import type { ProfileStore } from '../engines.js';
import type { MemoryFileTree, MemoryNode } from '../files/memory-file-system.js';
import { ServiceError } from '../service-error.js';
import { isProfilePath, USER_DATA_DIR } from './profile-data.js';
import { ustar } from './ustar.js';

/**
 * zstd of `bytes`. Node has it from 22.15 on: looked up when asked for (a named import would
 * keep the whole module from loading on an older Node), and refused in words without it.
 */
function zstdCompress(bytes: Uint8Array): Uint8Array {
  const compress = (zlib as { zstdCompressSync?: (input: Uint8Array) => Uint8Array })
    .zstdCompressSync;
  if (!compress) {
    throw new ServiceError(
      'bad_request',
      `This service runs on Node ${process.versions.node}, which has no zstd (Node 22.15 and later do): ask for format=tar.`,
    );
  }
  return compress(bytes);
}

/**
 * Profiles in memory, for the fake and the model's tests: a save copies what a profile keeps
 * (`PROFILE_PATHS`) of an instance's files, a load copies it into a new instance's.
 */
export class MemoryProfileStore implements ProfileStore {
  /** Each profile's saved files, by path relative to the user data dir. */
  readonly #saved = new Map<string, ReadonlyMap<string, MemoryNode>>();

  /** Copies a profile's saved files into an instance's. */
  load(profileId: string, tree: MemoryFileTree): void {
    for (const [relative, node] of this.#saved.get(profileId) ?? []) {
      const path = `${USER_DATA_DIR}/${relative}`;
      if (node.kind === 'dir') tree.makeDirectory(path, node.mode);
      else tree.putFile(path, node.content, node.mode);
    }
  }

  /** Keeps what a profile keeps of an instance's files as the profile's new version. */
  save(profileId: string, tree: MemoryFileTree): void {
    const saved = new Map<string, MemoryNode>();
    for (const path of tree.under(USER_DATA_DIR)) {
      const relative = path.slice(USER_DATA_DIR.length + 1);
      if (relative && isProfilePath(relative))
        saved.set(relative, tree.nodes.get(path) as MemoryNode);
    }
    this.#saved.set(profileId, saved);
  }

  async download(
    profileId: string,
    format: ProfileArchiveFormat,
  ): Promise<ReadableStream<Uint8Array>> {
    const entries = [...(this.#saved.get(profileId) ?? [])].map(([path, node]) => ({
      path,
      isDirectory: node.kind === 'dir',
      mode: node.mode,
      modTime: node.modTime,
      content: node.content,
    }));
    const tar = ustar(entries);
    const bytes = format === 'tar' ? tar : zstdCompress(tar);
    return new Blob([new Uint8Array(bytes)]).stream();
  }

  async remove(profileId: string): Promise<void> {
    this.#saved.delete(profileId);
  }
}
