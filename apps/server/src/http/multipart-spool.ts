import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, openAsBlob, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertMultipart,
  bodyTooLarge,
  type FingerprintPart,
  interruptedBody,
  invalid,
  type MultipartReader,
  malformedMultipart,
  multipartFingerprint,
  repeatedPart,
  type ServiceError,
  streamBody,
  tooManyParts,
} from '@x/service-kernel';
import busboy, { type Busboy } from 'busboy';

/** Longest form field kept, in bytes: fields are names and the like; files are the big parts. */
const FIELD_LIMIT = 64 * 1024;

interface SpooledFile {
  readonly name: string;
  readonly path: string;
  readonly filename: string;
  readonly type: string;
  size: number;
  sha256: string;
}

type Part = { readonly name: string; readonly value: string } | SpooledFile;

/** Where each File this reader made lies on disk, with its digest and size. */
const spooledFiles = new WeakMap<Blob, SpooledFile>();

/**
 * Where a File read by a spooling reader lies on disk, with its SHA-256 and size: a handler may
 * move it (within the call; it is removed afterwards otherwise) instead of copying it.
 */
export function spooledFile(
  file: Blob,
): { readonly path: string; readonly sha256: string; readonly size: number } | undefined {
  return spooledFiles.get(file);
}

/** A pass-through that hashes and counts what flows through it. */
export function measuring(): { stream: Transform; digest(): { sha256: string; size: number } } {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.byteLength;
      callback(null, chunk);
    },
  });
  return { stream, digest: () => ({ sha256: hash.digest('hex'), size }) };
}

/** Resolves once the parser can take more (or has stopped, so nothing waits on a dead stream). */
function ready(parser: Busboy): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      parser.off('drain', done);
      parser.off('close', done);
      resolve();
    };
    parser.once('drain', done);
    parser.once('close', done);
  });
}

/**
 * A MultipartReader that streams file parts to disk as they arrive, so memory stays flat whatever
 * the size of the upload: each file goes to its own file in `folder` (hashed on the way for the
 * idempotency fingerprint) and reaches the handler as a File backed by it. The body is counted as
 * it is read: past the limit the files are removed and the rest is drained for a 413. A malformed,
 * refused or interrupted body leaves nothing in `folder`; the files of an answered call are removed
 * by `dispose`. Whatever a crash left there is removed when the reader is made.
 */
export function createSpoolingMultipartReader(folder: string): MultipartReader {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  for (const leftover of readdirSync(folder)) rmSync(join(folder, leftover), { force: true });

  return async (request, limits) => {
    const contentType = assertMultipart(request);
    let parser: Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { fieldSize: FIELD_LIMIT, parts: limits.parts },
      });
    } catch {
      throw malformedMultipart(); // No boundary, or one busboy cannot use.
    }

    const parts: Part[] = [];
    const writes: Promise<void>[] = [];
    // The first problem found; the body is still read to its end so the caller gets the answer.
    let problem: ServiceError | undefined;
    const isNew = (name: string) => {
      if (parts.some((part) => part.name === name)) problem ??= repeatedPart(name);
      return problem === undefined;
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) {
        problem ??= invalid(`Form field "${name}" is too long.`, [
          { code: 'invalid_input', message: `body.${name}: longer than ${FIELD_LIMIT} bytes` },
        ]);
      }
      if (isNew(name)) parts.push({ name, value });
    });
    parser.on('file', (name, stream, info) => {
      if (!isNew(name)) {
        stream.resume();
        return;
      }
      const file: SpooledFile = {
        name,
        path: join(folder, randomUUID()),
        filename: info.filename ?? name,
        type: info.mimeType,
        size: 0,
        sha256: '',
      };
      parts.push(file);
      const measure = measuring();
      const write = createWriteStream(file.path, { flags: 'wx', mode: 0o600 });
      writes.push(
        pipeline(stream, measure.stream, write).then(() => {
          Object.assign(file, measure.digest());
        }),
      );
    });
    parser.on('partsLimit', () => {
      problem ??= tooManyParts(limits.parts);
    });
    const parsed = new Promise<void>((resolve, reject) => {
      parser.on('close', resolve);
      parser.on('error', reject);
    });
    const files = () => parts.filter((part): part is SpooledFile => 'path' in part);
    const removeFiles = async () => {
      await Promise.allSettled(writes);
      await Promise.all(files().map((file) => rm(file.path, { force: true })));
    };
    // Awaited below; until then it marks the form malformed, so the rest is read but not parsed.
    let failed = false;
    parsed.catch(() => {
      failed = true;
    });
    try {
      let read: { isTooLarge: boolean };
      try {
        read = await streamBody(request, limits.bytes, async (chunk) => {
          if (failed) return; // The form is already malformed: read the rest, keep none of it.
          if (!parser.write(chunk)) await ready(parser);
        });
      } catch {
        throw interruptedBody(); // The caller went away: no one hears the answer, the files go.
      }
      if (read.isTooLarge) throw bodyTooLarge();
      parser.end();
      try {
        await parsed;
      } catch {
        throw malformedMultipart();
      }
      await Promise.all(writes); // A failure here is the server's (a full disk: a 507).
      if (problem) throw problem;
    } catch (error) {
      parser.destroy();
      await removeFiles();
      throw error;
    }

    const value: Record<string, unknown> = {};
    const journal: Record<string, unknown> = {};
    for (const part of parts) {
      if ('value' in part) {
        value[part.name] = part.value;
        journal[part.name] = part.value;
      } else {
        const blob = await openAsBlob(part.path, { type: part.type });
        const file = new File([blob], part.filename, { type: part.type });
        spooledFiles.set(file, part);
        value[part.name] = file;
        journal[part.name] = { filename: part.filename, size: part.size, type: part.type };
      }
    }
    const fingerprint = multipartFingerprint(
      parts.map(
        (part): FingerprintPart =>
          'value' in part
            ? { name: part.name, value: part.value }
            : { name: part.name, sha256: part.sha256 },
      ),
    );
    return { value, journal, fingerprint, dispose: removeFiles };
  };
}
