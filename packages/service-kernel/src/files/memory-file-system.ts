import { posix } from 'node:path';
import { type FileEntry, INSTANCE_HOME } from '@x/types';
import { strToU8, unzipSync, type Zippable, zipSync } from 'fflate';
import type { BrowserInstance, FileSystem } from '../engines.js';
import {
  type ArchiveEntry,
  checkZipEntries,
  invalidArchive,
} from '../extensions/extension-archive.js';
import type { FsChange } from '../fs-watch/fs-change.js';
import { FileFailure } from './file-failure.js';

/** One file or directory of a MemoryFileTree. */
export interface MemoryNode {
  readonly kind: 'dir' | 'file';
  mode: number;
  modTime: Date;
  content: Uint8Array;
}

/** What a zip unpacked onto an instance is called in errors: the `zip_file` part. */
export const UPLOADED_ZIP = {
  noun: 'zip archive',
  part: 'body.zip_file',
  root: 'dest_path',
} as const;

const EMPTY = new Uint8Array();

/**
 * An instance's files held in memory, for the fake and the model's tests: paths to nodes, the
 * home always there, the bytes of its files bounded by `maxBytes` (a disk of that size: past it a
 * write fails as a full disk would). It has no links.
 */
export class MemoryFileTree {
  readonly nodes = new Map<string, MemoryNode>();
  readonly maxBytes: number;
  /** Hears every change the tree's own methods make, as a watch would see it. */
  onChange: (change: FsChange) => void = () => undefined;
  readonly #clock: () => Date;

  constructor(options: { readonly maxBytes: number; readonly clock: () => Date }) {
    this.maxBytes = options.maxBytes;
    this.#clock = options.clock;
    this.nodes.set(INSTANCE_HOME, this.newNode('dir', 0o755));
  }

  /** Bytes its files hold. */
  get usedBytes(): number {
    let used = 0;
    for (const node of this.nodes.values()) used += node.content.byteLength;
    return used;
  }

  kind(path: string): 'dir' | 'file' | undefined {
    return this.nodes.get(path)?.kind;
  }

  /** Makes a directory and its missing parents; a file in the way is a FileFailure. */
  makeDirectory(path: string, mode = 0o755): void {
    const kind = this.kind(path);
    if (kind === 'dir') return;
    if (kind === 'file') throw new FileFailure('notDirectory', path);
    this.makeDirectory(posix.dirname(path));
    this.nodes.set(path, this.newNode('dir', mode));
    this.#changed('CREATE', path, true);
  }

  /** Fails as a full disk when `bytes` more would not fit; `path` is what was being written. */
  assertRoom(bytes: number, path: string): void {
    if (this.usedBytes + bytes > this.maxBytes) throw new FileFailure('full', path);
  }

  /** Puts a file (its parents made), replacing one there; a full disk keeps the old one. */
  putFile(path: string, content: Uint8Array, mode = 0o644): void {
    if (this.kind(path) === 'dir') throw new FileFailure('isDirectory', path);
    const replaced = this.nodes.get(path)?.content.byteLength ?? 0;
    if (this.usedBytes - replaced + content.byteLength > this.maxBytes)
      throw new FileFailure('full', path);
    this.makeDirectory(posix.dirname(path));
    const isNew = !this.nodes.has(path);
    this.nodes.set(path, { ...this.newNode('file', mode), content });
    this.#changed(isNew ? 'CREATE' : 'WRITE', path, false);
  }

  /** Removes a path and everything under it. */
  remove(path: string): void {
    const kind = this.kind(path);
    for (const known of this.under(path)) this.nodes.delete(known);
    if (kind) this.#changed('DELETE', path, kind === 'dir');
  }

  /** Moves a path and everything under it to `to`, whose parent is a directory. */
  move(from: string, to: string): void {
    const kind = this.kind(from);
    for (const known of this.under(from)) {
      const node = this.nodes.get(known) as MemoryNode;
      this.nodes.delete(known);
      this.nodes.set(to + known.slice(from.length), node);
    }
    this.#changed('DELETE', from, kind === 'dir');
    this.#changed('CREATE', to, kind === 'dir');
  }

  /** The paths directly inside a directory. */
  children(path: string): string[] {
    return [...this.nodes.keys()].filter(
      (known) => known !== path && posix.dirname(known) === path,
    );
  }

  /** A path and everything under it, in order. */
  under(path: string): string[] {
    return [...this.nodes.keys()].filter((known) => known === path || known.startsWith(`${path}/`));
  }

  /** A new, empty node, made now. */
  newNode(kind: 'dir' | 'file', mode = kind === 'dir' ? 0o755 : 0o644): MemoryNode {
    return { kind, mode, modTime: this.#clock(), content: EMPTY };
  }

  #changed(type: 'CREATE' | 'WRITE' | 'DELETE', path: string, isDir: boolean): void {
    this.onChange({ type, path, name: posix.basename(path), is_dir: isDir });
  }
}

function entryOf(tree: MemoryFileTree, path: string): FileEntry {
  const node = tree.nodes.get(path);
  if (!node) throw new FileFailure('missing', path);
  return {
    name: posix.basename(path),
    path,
    is_dir: node.kind === 'dir',
    size_bytes: node.kind === 'dir' ? 4096 : node.content.byteLength,
    mode: node.mode.toString(8).padStart(3, '0'),
    mod_time: node.modTime.toISOString(),
  };
}

function existing(tree: MemoryFileTree, path: string, kind: 'dir' | 'file'): MemoryNode {
  const node = tree.nodes.get(path);
  if (!node) throw new FileFailure('missing', path);
  if (node.kind !== kind)
    throw new FileFailure(kind === 'dir' ? 'notDirectory' : 'isDirectory', path);
  return node;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The parents of a path that must be directories for it to be made. */
function assertParentsUsable(tree: MemoryFileTree, path: string): void {
  for (let parent = posix.dirname(path); parent !== INSTANCE_HOME; parent = posix.dirname(parent)) {
    if (tree.kind(parent) === 'file') throw new FileFailure('notDirectory', parent);
  }
}

/** The FileSystem of instances whose files are a MemoryFileTree (`instance.files`). */
export function memoryFileSystem<
  I extends BrowserInstance & { readonly files: MemoryFileTree },
>(): FileSystem<I> {
  return {
    async read({ files }, path) {
      const { content } = existing(files, path, 'file');
      return {
        stream: new Blob([content as Uint8Array<ArrayBuffer>]).stream(),
        size: content.byteLength,
      };
    },
    async write({ files }, path, content, mode) {
      assertParentsUsable(files, path);
      if (files.kind(path) === 'dir') {
        await content.cancel();
        throw new FileFailure('isDirectory', path);
      }
      files.putFile(path, await readAll(content), mode);
    },
    async writeMany({ files }, uploads) {
      const contents = await Promise.all(
        uploads.map(async (upload) => new Uint8Array(await upload.content.arrayBuffer())),
      );
      for (const upload of uploads) {
        assertParentsUsable(files, upload.path);
        if (files.kind(upload.path) === 'dir') throw new FileFailure('isDirectory', upload.path);
      }
      const total = contents.reduce((sum, bytes) => sum + bytes.byteLength, 0);
      files.assertRoom(total, uploads[0]?.path ?? INSTANCE_HOME);
      for (const [index, upload] of uploads.entries())
        files.putFile(upload.path, contents[index] ?? EMPTY);
    },
    async list({ files }, path, max) {
      existing(files, path, 'dir');
      const children = files.children(path);
      if (children.length > max) throw new FileFailure('tooMany', path);
      return children.map((child) => entryOf(files, child));
    },
    async info({ files }, path) {
      return entryOf(files, path);
    },
    async makeDirectory({ files }, path, mode) {
      assertParentsUsable(files, path);
      files.makeDirectory(path, mode);
    },
    async removeFile({ files }, path) {
      existing(files, path, 'file');
      files.remove(path);
    },
    async removeDirectory({ files }, path) {
      existing(files, path, 'dir');
      files.remove(path);
    },
    async move({ files }, from, to) {
      if (!files.nodes.has(from)) throw new FileFailure('missing', from);
      if (files.nodes.has(to)) throw new FileFailure('exists', to);
      const parent = posix.dirname(to);
      if (!files.nodes.has(parent)) throw new FileFailure('missing', parent);
      if (files.kind(parent) !== 'dir') throw new FileFailure('notDirectory', parent);
      files.move(from, to);
    },
    async setMode({ files }, path, mode) {
      const node = files.nodes.get(path);
      if (!node) throw new FileFailure('missing', path);
      node.mode = mode;
    },
    async unpack({ files }, path, zip) {
      const entries: ArchiveEntry[] = [];
      let unpacked: Record<string, Uint8Array>;
      try {
        unpacked = unzipSync(new Uint8Array(await zip.arrayBuffer()), {
          filter(file) {
            entries.push({ name: file.name, uncompressedSize: file.originalSize });
            return true;
          },
        });
      } catch {
        throw invalidArchive('it is not a zip archive, or it is corrupt', UPLOADED_ZIP);
      }
      checkZipEntries(entries, UPLOADED_ZIP);
      assertParentsUsable(files, path);
      if (files.kind(path) === 'file') throw new FileFailure('notDirectory', path);
      const total = Object.values(unpacked).reduce((sum, bytes) => sum + bytes.byteLength, 0);
      files.assertRoom(total, path);
      for (const name of Object.keys(unpacked)) {
        const target = posix.join(path, name.replace(/\/$/, ''));
        if (files.kind(target) === 'dir' && !name.endsWith('/'))
          throw new FileFailure('isDirectory', target);
      }
      files.makeDirectory(path);
      for (const [name, bytes] of Object.entries(unpacked)) {
        const target = posix.join(path, name);
        if (name.endsWith('/')) files.makeDirectory(target.replace(/\/$/, ''));
        else files.putFile(target, bytes);
      }
    },
    async zip({ files }, path, max) {
      existing(files, path, 'dir');
      const inside = files.under(path).filter((known) => known !== path);
      if (inside.length > max) throw new FileFailure('tooMany', path);
      const zippable: Zippable = {};
      for (const known of inside) {
        const node = files.nodes.get(known) as MemoryNode;
        const name = known.slice(path.length + 1);
        if (node.kind === 'dir') zippable[`${name}/`] = strToU8('');
        else zippable[name] = node.content;
      }
      return new Blob([zipSync(zippable) as Uint8Array<ArrayBuffer>]).stream();
    },
    async follow({ files }, path, fromEnd) {
      // As tail -F follows a name: a file replaced under it (a write makes a new one) or cut
      // shorter is read again from its start.
      let node = existing(files, path, 'file');
      let offset = fromEnd ? node.content.byteLength : 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            for (;;) {
              const now = files.nodes.get(path);
              if (now?.kind === 'file' && now !== node) {
                node = now;
                offset = 0;
              }
              const { content } = node;
              if (content.byteLength < offset) offset = 0;
              if (content.byteLength > offset) {
                controller.enqueue(content.slice(offset));
                offset = content.byteLength;
                return;
              }
              if (!fromEnd) return controller.close();
              await new Promise((resolve) => {
                timer = setTimeout(resolve, MEMORY_FOLLOW_POLL_MS);
              });
            }
          },
          cancel() {
            clearTimeout(timer);
          },
        },
        { highWaterMark: 0 },
      );
    },
  };
}

/** How often a followed file of a memory tree is looked at for what was added, in ms. */
const MEMORY_FOLLOW_POLL_MS = 50;
