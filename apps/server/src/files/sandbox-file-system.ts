import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  type BrowserInstance,
  FileFailure,
  type FileFailureKind,
  type FileSystem,
  refusals,
  UPLOADED_ZIP,
} from '@x/service-kernel';
import type { FileEntry } from '@x/types';
import { checkArchive, writeArchive } from '../extensions/archive-store.js';
import { streamOfReadable } from '../http/readable-stream.js';
import type { SandboxUser } from '../sandbox/bubblewrap.js';
import { endSandbox, spawnSandbox } from '../sandbox/bubblewrap.js';
import type { SessionCgroup } from '../sandbox/cgroups.js';
import { FILE_SCRIPTS, type FileScript } from './file-scripts.js';
import { zipOfTar } from './zip-of-tar.js';

/** Where a script runs: a session's home, as its user, in its cgroup (a ChromiumInstance is one). */
export interface SandboxPlace {
  readonly home: string;
  readonly user: SandboxUser | undefined;
  readonly cgroup: SessionCgroup | undefined;
}

/** Most bytes of a listing or an entry read back from a script (10,000 entries fit many times). */
const MAX_LISTING_BYTES = 16 * 1024 * 1024;

/** Most bytes of a script's stderr kept: its refusal, or a coreutils message. */
const MAX_STDERR_BYTES = 64 * 1024;

const FAILURE_KINDS = new Set<FileFailureKind>([
  'missing',
  'outside',
  'exists',
  'isDirectory',
  'notDirectory',
  'notFile',
  'denied',
  'full',
  'tooLarge',
  'tooMany',
]);

/** The refusal a script reported (`xb-fail:<kind>:<path>\0` on stderr), if it reported one. */
export function reportedFailure(stderr: string): FileFailure | undefined {
  const start = stderr.lastIndexOf('xb-fail:');
  if (start < 0) return undefined;
  const rest = stderr.slice(start + 'xb-fail:'.length);
  const colon = rest.indexOf(':');
  const kind = rest.slice(0, colon) as FileFailureKind;
  if (colon < 0 || !FAILURE_KINDS.has(kind)) return undefined;
  const end = rest.indexOf('\0', colon);
  return new FileFailure(kind, rest.slice(colon + 1, end < 0 ? undefined : end));
}

/** Keeps the first `max` bytes of what a stream gives. */
function collect(stream: Readable | null, max: number): { bytes(): Buffer; isCut(): boolean } {
  const chunks: Buffer[] = [];
  let size = 0;
  let isCut = false;
  stream?.on('data', (chunk: Buffer) => {
    if (size + chunk.byteLength > max) isCut = true;
    else {
      chunks.push(chunk);
      size += chunk.byteLength;
    }
  });
  return { bytes: () => Buffer.concat(chunks), isCut: () => isCut };
}

/** How a script ended. */
interface Outcome {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Parses `find -printf` entries (name, type, size, mode, mtime, each NUL-ended) under `folder`. */
function parseEntries(folder: string, fields: readonly string[]): FileEntry[] {
  const entries: FileEntry[] = [];
  for (let index = 0; index + 5 <= fields.length; index += 5) {
    const [name, type, size, mode, mtime] = fields.slice(index, index + 5) as [
      string,
      string,
      string,
      string,
      string,
    ];
    entries.push({
      name,
      path: folder === '/' ? `/${name}` : `${folder}/${name}`,
      is_dir: type === 'd',
      size_bytes: Number(size),
      mode: mode.padStart(3, '0'),
      mod_time: new Date(Math.round(Number(mtime) * 1000)).toISOString(),
    });
  }
  return entries;
}

/**
 * The files of real instances. Every operation runs inside the session's own sandbox as the
 * session's own user (bubblewrap, no network, its cgroup): paths are resolved there, links followed
 * as the session's processes would follow them, and permission bits hold as they hold for them.
 * So a link planted by the session, or swapped between a check and the act, reaches nothing the
 * session could not reach itself: never the host, never another session. Bytes stream through
 * pipes (flat memory whatever the size); a write lands under a hidden name and is renamed into
 * place, so a failed or cut write leaves nothing.
 */
export class SandboxFileSystem<I extends BrowserInstance & SandboxPlace> implements FileSystem<I> {
  readonly #bubblewrap: string | undefined;
  readonly #staging: string;

  /** `staging`: a private folder where uploaded zips are checked and unpacked first. */
  constructor(bubblewrap: string | undefined, staging: string) {
    this.#bubblewrap = bubblewrap;
    this.#staging = staging;
    mkdirSync(staging, { recursive: true, mode: 0o700 });
    for (const leftover of readdirSync(staging))
      rmSync(join(staging, leftover), { recursive: true, force: true });
  }

  async read(instance: SandboxPlace, path: string) {
    const child = this.#spawn(instance, 'read', [path], ['ignore', 'pipe', 'pipe']);
    const { header, stream } = await headedStream(child);
    return { stream, size: Number(header) };
  }

  async follow(instance: SandboxPlace, path: string, fromEnd: boolean) {
    const child = this.#spawn(
      instance,
      'follow',
      [path, fromEnd ? 'end' : 'start'],
      ['ignore', 'pipe', 'pipe'],
    );
    return (await headedStream(child)).stream;
  }

  async write(
    instance: SandboxPlace,
    path: string,
    content: ReadableStream<Uint8Array>,
    mode: number,
  ): Promise<void> {
    const token = randomUUID();
    const child = this.#spawn(
      instance,
      'write',
      [path, mode.toString(8), token],
      ['pipe', 'pipe', 'pipe', 'pipe'],
    );
    // The word that commits the file: said only once the whole body has arrived.
    const commit = child.stdio[3] as Writable;
    commit.on('error', () => undefined);
    const ended = outcomeOf(child, 1024);
    try {
      await pipeline(
        Readable.fromWeb(content as NodeReadableStream<Uint8Array>),
        child.stdin as Writable,
      );
    } catch (error) {
      commit.destroy();
      // The script refused before it read everything (its stdin closed): its refusal is the answer.
      if (child.exitCode !== null) throwFailure(await ended);
      // The body failed (past its limit, the caller gone): the partial file goes.
      await endSandbox(child);
      await ended;
      // The body's failure is the one told; at worst a hidden partial file stays beside the path.
      await this.#run(instance, 'discard', [path, token]).catch(() => undefined);
      throw error;
    }
    commit.end('commit\n');
    throwFailure(await ended);
  }

  async writeMany(
    instance: SandboxPlace,
    files: readonly { readonly path: string; readonly content: Blob }[],
  ): Promise<void> {
    for (const file of files) await this.write(instance, file.path, file.content.stream(), 0o644);
  }

  async list(instance: SandboxPlace, path: string, max: number): Promise<FileEntry[]> {
    const fields = await this.#fields(instance, 'list', [path, String(max)]);
    return parseEntries(fields[0] as string, fields.slice(1));
  }

  async info(instance: SandboxPlace, path: string): Promise<FileEntry> {
    const fields = await this.#fields(instance, 'info', [path]);
    const resolved = fields[0] as string;
    const [entry] = parseEntries(
      resolved.slice(0, resolved.lastIndexOf('/')) || '/',
      fields.slice(1),
    );
    if (!entry) throw new FileFailure('missing', path);
    return entry;
  }

  async makeDirectory(instance: SandboxPlace, path: string, mode: number): Promise<void> {
    await this.#run(instance, 'makeDirectory', [path, mode.toString(8)]);
  }

  async removeFile(instance: SandboxPlace, path: string): Promise<void> {
    await this.#run(instance, 'removeFile', [path]);
  }

  async removeDirectory(instance: SandboxPlace, path: string): Promise<void> {
    await this.#run(instance, 'removeDirectory', [path]);
  }

  async move(instance: SandboxPlace, from: string, to: string): Promise<void> {
    await this.#run(instance, 'move', [from, to]);
  }

  async setMode(instance: SandboxPlace, path: string, mode: number): Promise<void> {
    await this.#run(instance, 'setMode', [path, mode.toString(8)]);
  }

  /**
   * The zip is checked and unpacked on the host first, in a private folder, by the rules of
   * extension archives (each entry held to its declared size); then it is carried into the
   * sandbox as a tar and unpacked there as the session's user, once its disk has room for it.
   */
  async unpack(instance: SandboxPlace, path: string, zip: Blob): Promise<void> {
    const work = join(this.#staging, randomUUID());
    await mkdir(work, { mode: 0o700 });
    try {
      await writeArchive(zip, join(work, 'upload.zip'), UPLOADED_ZIP);
      const archive = await checkArchive(join(work, 'upload.zip'), UPLOADED_ZIP);
      let bytes: number;
      try {
        bytes = await archive.unpack(join(work, 'files'));
      } finally {
        archive.close();
      }
      const tar = spawn('tar', ['-c', '-C', join(work, 'files'), '.'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const child = this.#spawn(
        instance,
        'unpack',
        [path, String(bytes)],
        ['pipe', 'pipe', 'pipe'],
      );
      const ended = outcomeOf(child, 1024);
      // A script that refuses (no room, say) stops reading: its end below is the answer.
      await pipeline(tar.stdout, child.stdin as Writable).catch(() => undefined);
      throwFailure(await ended);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async zip(
    instance: SandboxPlace,
    path: string,
    max: number,
  ): Promise<ReadableStream<Uint8Array>> {
    const child = this.#spawn(instance, 'pack', [path, String(max)], ['ignore', 'pipe', 'pipe']);
    const { stream } = await headedStream(child);
    return zipOfTar(stream);
  }

  /**
   * Unpacks a tar into a folder of a session (made if missing) as its user, once its disk has
   * room for `bytes`; before its browser starts (a profile loaded) or while it runs.
   */
  async unpackTar(place: SandboxPlace, path: string, tar: Readable, bytes: number): Promise<void> {
    const child = this.#spawn(place, 'unpack', [path, String(bytes)], ['pipe', 'pipe', 'pipe']);
    const ended = outcomeOf(child, 1024);
    // A script that refuses (no room, say) stops reading: its end below is the answer.
    await pipeline(tar, child.stdin as Writable).catch(() => undefined);
    throwFailure(await ended);
  }

  /**
   * A tar of the paths (relative to `folder`) that exist there, made as the session's user in
   * its sandbox: links are kept as links, so nothing outside the session is read. The stream
   * fails, rather than ends, when tar did not succeed.
   */
  packPaths(place: SandboxPlace, folder: string, paths: readonly string[]): Readable {
    const child = this.#spawn(place, 'packPaths', [folder, ...paths], ['ignore', 'pipe', 'pipe']);
    const stderr = collect(child.stderr, MAX_STDERR_BYTES);
    const closed = once(child, 'close') as Promise<[number | null]>;
    const stdout = child.stdout as Readable;
    async function* checked() {
      try {
        for await (const chunk of stdout as AsyncIterable<Buffer>) yield chunk;
        const [code] = await closed;
        throwFailure({ code, stdout: Buffer.alloc(0), stderr: stderr.bytes().toString('utf8') });
      } finally {
        await endSandbox(child);
      }
    }
    return Readable.from(checked(), { objectMode: false });
  }

  /** Runs a script to its end; a refusal it reported is thrown as a FileFailure. */
  async #run(instance: SandboxPlace, script: FileScript, args: readonly string[]): Promise<Buffer> {
    const child = this.#spawn(instance, script, args, ['ignore', 'pipe', 'pipe']);
    const outcome = await outcomeOf(child, MAX_LISTING_BYTES);
    throwFailure(outcome);
    return outcome.stdout;
  }

  /** A script's output as NUL-ended fields. */
  async #fields(
    instance: SandboxPlace,
    script: FileScript,
    args: readonly string[],
  ): Promise<string[]> {
    const output = (await this.#run(instance, script, args)).toString('utf8');
    return output.split('\0').slice(0, -1);
  }

  #spawn(
    instance: SandboxPlace,
    script: FileScript,
    args: readonly string[],
    stdio: ('pipe' | 'ignore')[],
  ): ChildProcess {
    if (!this.#bubblewrap)
      throw refusals.missingTool('File operations', 'bubblewrap', 'bubblewrap');
    return spawnSandbox(
      this.#bubblewrap,
      {
        home: instance.home,
        shareNetwork: false,
        user: instance.user,
        cgroup: instance.cgroup,
        seccomp: 'process',
      },
      '/bin/sh',
      ['-c', FILE_SCRIPTS[script], 'sh', ...args],
      stdio,
    );
  }
}

/** Waits for a script to end, keeping at most `max` bytes of its output; past that it is ended. */
async function outcomeOf(child: ChildProcess, max: number): Promise<Outcome> {
  const stdout = collect(child.stdout, max);
  const stderr = collect(child.stderr, MAX_STDERR_BYTES);
  child.stdout?.on('data', () => {
    if (stdout.isCut()) void endSandbox(child);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  return {
    code: stdout.isCut() ? null : code,
    stdout: stdout.bytes(),
    stderr: stderr.bytes().toString('utf8'),
  };
}

/** Throws what a script that did not succeed stands for. */
function throwFailure(outcome: Outcome): void {
  if (outcome.code === 0) return;
  const failure = reportedFailure(outcome.stderr);
  if (failure) throw failure;
  throw new Error(`file operation failed (exit ${outcome.code}): ${outcome.stderr.slice(0, 500)}`);
}

/**
 * A script's output that starts with a header line once its checks passed: the header, and the
 * rest as a stream. A script that fails before its header has its refusal thrown. Cancelling the
 * stream ends the sandbox; a script that fails after the header fails the stream.
 */
async function headedStream(
  child: ChildProcess,
): Promise<{ header: string; stream: ReadableStream<Uint8Array> }> {
  const stdout = child.stdout as Readable;
  const stderr = collect(child.stderr, MAX_STDERR_BYTES);
  const closed = once(child, 'close') as Promise<[number | null]>;
  const head = await readHeader(stdout);
  if (head === 'garbled') {
    // Not what the scripts print: end it rather than leave it blocked on a full pipe.
    await endSandbox(child);
    throw new Error('file operation printed no header');
  }
  if (head === 'ended') {
    const [code] = await closed;
    throwFailure({
      code: code === 0 ? 1 : code,
      stdout: Buffer.alloc(0),
      stderr: stderr.bytes().toString('utf8'),
    });
    throw new Error('unreachable');
  }
  const reader = streamOfReadable(stdout).getReader();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.leftover.byteLength > 0) controller.enqueue(new Uint8Array(head.leftover));
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (!done) {
        controller.enqueue(value);
        return;
      }
      const [code] = await closed;
      if (code === 0) controller.close();
      else controller.error(new Error(`file operation failed after it began (exit ${code})`));
    },
    async cancel() {
      await endSandbox(child);
    },
  });
  return { header: head.header, stream };
}

/**
 * Reads up to the first newline of a stream (at most 4 KiB): the header and what came after;
 * `ended` when the stream ended first (the script refused), `garbled` past 4 KiB without one.
 */
function readHeader(
  stdout: Readable,
): Promise<{ header: string; leftover: Buffer } | 'ended' | 'garbled'> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const done = (value: { header: string; leftover: Buffer } | 'ended' | 'garbled') => {
      stdout.off('data', onData);
      stdout.off('end', onEnd);
      stdout.pause();
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(0x0a);
      if (end >= 0)
        done({
          header: buffered.subarray(0, end).toString('utf8'),
          leftover: buffered.subarray(end + 1),
        });
      else if (buffered.byteLength > 4096) done('garbled');
    };
    const onEnd = () => done('ended');
    stdout.on('data', onData);
    stdout.on('end', onEnd);
  });
}
