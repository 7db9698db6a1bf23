import { posix } from 'node:path';
import { type FileEntry, INSTANCE_HOME, LIMITS } from '@x/types';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance, FileSystem } from '../engines.js';
import { lengthProblem } from '../instance-paths.js';
import { refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { drainBody } from '../pipeline/read-body.js';
import { interruptedBody, invalid } from '../pipeline/request-body.js';
import { FileFailure, fileError, fileTooLarge, type PathField } from './file-failure.js';

/** The only user and group an instance's files may belong to. */
export const INSTANCE_USER = 'browser';

const query = (name: string): PathField => ({ location: 'query', name });
const body = (name: string): PathField => ({ location: 'body', name });

/** What the model knows of a call's body stream once the engine is done with it. */
interface Metered {
  readonly stream: ReadableStream<Uint8Array>;
  /** Past the limit: the stream failed with that and nothing may be kept. */
  isTooLarge(): boolean;
  /** The caller's body stopped arriving before its end. */
  isInterrupted(): boolean;
  /**
   * Reads and drops what the engine left of the body (it refused before the end), so the caller
   * hears the answer on a connection still in step; past 64 MiB the body is cut instead.
   */
  settle(): Promise<void>;
}

/** A stream that calls `release` once, when it ends, fails or is cancelled. */
function releasing(
  stream: ReadableStream<Uint8Array>,
  release: () => void,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let isReleased = false;
  const once = () => {
    if (isReleased) return;
    isReleased = true;
    release();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          once();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        once();
        controller.error(error);
      }
    },
    async cancel(reason) {
      once();
      await reader.cancel(reason);
    },
  });
}

/**
 * Counts a body's bytes as the engine reads them: past `limit`, or when the caller's stream
 * fails, the stream the engine reads fails too, so the engine drops what it wrote.
 */
function meter(source: ReadableStream<Uint8Array>, limit: number, path: string): Metered {
  const reader = source.getReader();
  let size = 0;
  let isTooLarge = false;
  let isInterrupted = false;
  let isDone = false;
  const drain = async () => {
    if (isDone) return;
    isDone = true;
    // A body that fails while it is drained (the caller went away) has no one left to answer.
    await drainBody(reader, 0).catch(() => undefined);
  };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        isInterrupted = true;
        isDone = true;
        controller.error(interruptedBody());
        return;
      }
      if (chunk.done) {
        isDone = true;
        controller.close();
        return;
      }
      size += chunk.value.byteLength;
      if (size > limit) {
        isTooLarge = true;
        isDone = true;
        controller.error(new FileFailure('tooLarge', path));
        // The engine hears the body is too large; one that failed already has nothing to cut.
        await reader.cancel().catch(() => undefined);
        return;
      }
      controller.enqueue(chunk.value);
    },
    // An engine that stops reading (it refused) leaves the rest to be drained, not cut.
    cancel: drain,
  });
  return {
    stream,
    isTooLarge: () => isTooLarge,
    isInterrupted: () => isInterrupted,
    settle: drain,
  };
}

/**
 * Every rule of the files on instances, the same in the fake and the server: every path absolute
 * and inside `/home/browser` once `..` and links are resolved (400 outside, naming the field),
 * 404 for nothing there, 409 for something in the way of what a call makes, 400 for the wrong
 * kind (a directory to read, a file to list), writes bounded per call (413) and by the
 * instance's disk (507), whole or not at all. The home itself is never deleted or moved.
 */
export class FileModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
  }

  get #files(): FileSystem<I> {
    return this.#context.engines.files;
  }

  async read(browserId: string, path: string) {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(path, query('path'));
      return this.#answer(() => this.#files.read(instance, target), query('path'), {
        hint: 'list it with list_files, or download it with download_dir_zip',
      });
    });
  }

  /** Writes a file from the caller's body, at most LIMITS.fileBytes. */
  async write(
    browserId: string,
    path: string,
    mode: string,
    content: ReadableStream<Uint8Array>,
  ): Promise<void> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(path, query('path'));
      const bits = parseMode(mode, query('mode'));
      const metered = meter(content, LIMITS.fileBytes, target);
      try {
        await this.#answer(
          () => this.#files.write(instance, target, metered.stream, bits),
          query('path'),
          { isMaking: true },
        );
      } catch (error) {
        if (metered.isTooLarge()) throw fileTooLarge(LIMITS.fileBytes);
        if (metered.isInterrupted()) throw interruptedBody();
        throw error;
      } finally {
        await metered.settle();
      }
    });
  }

  async list(browserId: string, path: string): Promise<FileEntry[]> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(path, query('path'));
      const entries = await this.#answer(
        () => this.#files.list(instance, target, LIMITS.directoryEntries),
        query('path'),
        { hint: 'read it with read_file', limit: LIMITS.directoryEntries },
      );
      return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    });
  }

  async info(browserId: string, path: string): Promise<FileEntry> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(path, query('path'));
      return this.#answer(() => this.#files.info(instance, target), query('path'));
    });
  }

  async makeDirectory(browserId: string, path: string, mode: string): Promise<void> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(path, body('path'));
      const bits = parseMode(mode, body('mode'));
      await this.#answer(() => this.#files.makeDirectory(instance, target, bits), body('path'), {
        isMaking: true,
      });
    });
  }

  async removeFile(browserId: string, path: string): Promise<void> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(path, body('path'));
      await this.#answer(() => this.#files.removeFile(instance, target), body('path'), {
        hint: 'delete it with delete_directory',
      });
    });
  }

  async removeDirectory(browserId: string, path: string): Promise<void> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(path, body('path'), { isHomeRefused: true });
      await this.#answer(() => this.#files.removeDirectory(instance, target), body('path'), {
        hint: 'delete it with delete_file',
      });
    });
  }

  async move(browserId: string, from: string, to: string): Promise<void> {
    return this.#bounded(browserId, async (instance) => {
      const source = resolvePath(from, body('src_path'), { isHomeRefused: true });
      const destination = resolvePath(to, body('dest_path'), { isHomeRefused: true });
      if (destination === source || destination.startsWith(`${source}/`)) {
        throw invalid(`${to} is ${source} or inside it.`, [
          { code: 'invalid_input', message: 'body.dest_path: must not be src_path or inside it' },
        ]);
      }
      try {
        await this.#files.move(instance, source, destination);
      } catch (error) {
        if (!(error instanceof FileFailure)) throw error;
        const isSource = error.path === source && error.kind !== 'exists';
        throw fileError(error, isSource ? body('src_path') : body('dest_path'), {
          isMaking: !isSource,
        });
      }
    });
  }

  async setPermissions(
    browserId: string,
    change: { path: string; mode: string; owner?: string | undefined; group?: string | undefined },
  ): Promise<void> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(change.path, body('path'));
      const bits = parseMode(change.mode, body('mode'));
      for (const key of ['owner', 'group'] as const) {
        const name = change[key];
        if (name !== undefined && name !== INSTANCE_USER) {
          throw invalid(
            `${key} can only be ${INSTANCE_USER}: an instance's files belong to its own user.`,
            [{ code: 'invalid_input', message: `body.${key}: must be ${INSTANCE_USER}` }],
          );
        }
      }
      await this.#answer(() => this.#files.setMode(instance, target, bits), body('path'));
    });
  }

  /** Writes every file of an upload; their destinations must differ. */
  async upload(
    browserId: string,
    files: readonly { readonly dest_path: string; readonly file: Blob }[],
  ): Promise<void> {
    return this.#bounded(browserId, async (instance) => {
      const targets = files.map((file, index) => ({
        path: resolvePath(file.dest_path, body(`files.${index}.dest_path`)),
        content: file.file,
      }));
      const total = files.reduce((sum, file) => sum + file.file.size, 0);
      if (total > LIMITS.fileBytes) throw fileTooLarge(LIMITS.fileBytes);
      targets.forEach((target, index) => {
        const earlier = targets.findIndex((other) => other.path === target.path);
        if (earlier !== index) {
          throw invalid(`Two files of the upload go to ${target.path}.`, [
            {
              code: 'invalid_input',
              message: `body.files.${index}.dest_path: is also files.${earlier}.dest_path`,
            },
          ]);
        }
      });
      try {
        await this.#files.writeMany(instance, targets);
      } catch (error) {
        if (!(error instanceof FileFailure)) throw error;
        const index = Math.max(
          0,
          targets.findIndex(
            (target) => target.path === error.path || target.path.startsWith(`${error.path}/`),
          ),
        );
        throw fileError(error, body(`files.${index}.dest_path`), { isMaking: true });
      }
    });
  }

  async uploadZip(browserId: string, destination: string, zip: Blob): Promise<void> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(destination, body('dest_path'));
      await this.#answer(() => this.#files.unpack(instance, target, zip), body('dest_path'), {
        isMaking: true,
      });
    });
  }

  /**
   * Makes `folder` (inside the home) hold exactly what `zip` holds: what was there goes first.
   * A failure is answered as the field `field` of the body.
   */
  async replaceWithZip(browserId: string, folder: string, zip: Blob, field: string): Promise<void> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(folder, body(field), { isHomeRefused: true });
      if (instance.stat(target, field) === 'dir')
        await this.#answer(() => this.#files.removeDirectory(instance, target), body(field));
      await this.#answer(() => this.#files.unpack(instance, target, zip), body(field), {
        isMaking: true,
      });
    });
  }

  async zip(browserId: string, path: string): Promise<ReadableStream<Uint8Array>> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(path, query('path'));
      return this.#answer(
        () => this.#files.zip(instance, target, LIMITS.directoryEntries),
        query('path'),
        { hint: 'read it with read_file', limit: LIMITS.directoryEntries },
      );
    });
  }

  /**
   * A file's bytes as a log is read (FileSystem.follow), by the rules of read_file: the stream
   * holds a file operation's place until it ends or is cancelled.
   */
  async follow(
    browserId: string,
    path: string,
    fromEnd: boolean,
  ): Promise<ReadableStream<Uint8Array>> {
    return this.#bounded(browserId, async (instance) => {
      const target = resolvePath(path, query('path'));
      return this.#answer(() => this.#files.follow(instance, target, fromEnd), query('path'), {
        hint: 'stream a file, not a directory',
      });
    });
  }

  /**
   * Runs one file operation of a browser within its bound (BrowserLimits.fileOperations; one more
   * is 429): a stream it answers with holds its place until the stream ends or is cancelled.
   */
  async #bounded<T>(browserId: string, work: (instance: I) => Promise<T>): Promise<T> {
    const entry = this.#browsers.live(browserId);
    const max = this.#context.settings.limits.fileOperations;
    if (entry.fileOperations >= max) throw refusals.tooManyFileOperations(browserId, max);
    entry.fileOperations++;
    let isHeld = false;
    const release = () => {
      entry.fileOperations--;
    };
    try {
      const result = await work(entry.instance);
      const stream =
        result instanceof ReadableStream ? result : (result as { stream?: unknown })?.stream;
      if (stream instanceof ReadableStream) {
        isHeld = true;
        const held = releasing(stream, release);
        return (result instanceof ReadableStream ? held : { ...result, stream: held }) as T;
      }
      return result;
    } finally {
      if (!isHeld) release();
    }
  }

  /** Runs an engine call, answering its FileFailure as `field` says. */
  async #answer<T>(
    work: () => Promise<T>,
    field: PathField,
    options: { isMaking?: boolean; hint?: string; limit?: number } = {},
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof FileFailure)) throw error;
      throw fileError(error, field, {
        isMaking: options.isMaking ?? false,
        ...(options.hint ? { hint: options.hint } : {}),
        limit: options.limit ?? LIMITS.fileBytes,
      });
    }
  }
}

/** A path resolved (`..`, `.`, repeated slashes), 400 naming `field` outside the home. */
function resolvePath(
  path: string,
  field: PathField,
  options: { readonly isHomeRefused?: boolean } = {},
): string {
  const resolved = posix.resolve(INSTANCE_HOME, path);
  if (resolved !== INSTANCE_HOME && !resolved.startsWith(`${INSTANCE_HOME}/`))
    throw fileError(new FileFailure('outside', path), field, { isMaking: false });
  const tooLong = lengthProblem(resolved);
  if (tooLong)
    throw invalid(`${field.name} ${tooLong}.`, [
      { code: 'invalid_input', message: `${field.location}.${field.name}: ${tooLong}` },
    ]);
  if (options.isHomeRefused && resolved === INSTANCE_HOME) {
    throw invalid(`${INSTANCE_HOME} itself cannot be moved or deleted.`, [
      {
        code: 'invalid_input',
        message: `${field.location}.${field.name}: must be inside ${INSTANCE_HOME}, not the home itself`,
      },
    ]);
  }
  return resolved;
}

/**
 * Permission bits from an octal string. Set-user-id and set-group-id are refused: nothing on an
 * instance runs with another's rights.
 */
function parseMode(mode: string, field: PathField): number {
  const bits = Number.parseInt(mode, 8);
  if ((bits & 0o6000) !== 0) {
    throw invalid('Set-user-id and set-group-id bits are not allowed.', [
      {
        code: 'invalid_input',
        message: `${field.location}.${field.name}: must not set 4000 or 2000`,
      },
    ]);
  }
  return bits;
}
